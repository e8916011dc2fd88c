import type { TriggerDef } from '@mikro-orm/core';

const DDL = /^create\s+(?:constraint\s+)?trigger\s+(\w+)\s+(before|after|instead\s+of)\s+(.+?)\s+on\s+"?\w+"?\s.*for\s+each\s+(row|statement)/is;

/**
 * A trigger declared by its `create trigger` statement. MikroORM's own trigger form gives each
 * trigger a function of its own, named after it; ours call functions shared by several triggers
 * (created by the migrations), so only the raw statement can describe them. The schema comparator
 * then matches a trigger by name (`test/entity-schema.test.ts` compares their definitions).
 */
export function sqlTrigger(ddl: string): TriggerDef {
  const m = DDL.exec(ddl.trim());
  if (!m) throw new Error(`Not a create trigger statement: ${ddl}`);
  const events = m[3].split(/\s+or\s+/i).map((e) => e.trim().split(/\s+/)[0].toLowerCase() as TriggerDef['events'][number]);
  return {
    name: m[1],
    timing: m[2].toLowerCase().replace(/\s+/, ' ') as TriggerDef['timing'],
    events,
    forEach: m[4].toLowerCase() as 'row' | 'statement',
    expression: ddl,
  };
}
