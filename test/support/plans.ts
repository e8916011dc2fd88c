import pg from 'pg';

/** A node of PostgreSQL's JSON plan (`explain (format json)`), with the fields the plan tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, the root first. */
export const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** The nodes of the plan PostgreSQL makes for `text` with `params` on `client`'s session (its settings, such as `enable_seqscan`). */
export async function explainNodes(client: pg.Client, text: string, params: unknown[] = []): Promise<PlanNode[]> {
  const [row] = (await client.query(`explain (format json) ${text}`, params)).rows;
  return planNodes(row['QUERY PLAN'][0].Plan as PlanNode);
}

/**
 * Runs `check` with `explain` on a session of its own to `dbUrl` whose sequential scans are priced out
 * (`enable_seqscan = off`): on a test's small tables the planner would scan them anyway, so a read no
 * index can serve is still a Seq Scan there and one an index serves is planned with it.
 */
export async function withIndexPlanner<T>(dbUrl: string, check: (explain: (text: string, params?: unknown[]) => Promise<PlanNode[]>) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query('set enable_seqscan = off');
    return await check((text, params = []) => explainNodes(client, text, params));
  } finally {
    await client.end();
  }
}
