import { buildSchema, type GraphQLSchema } from 'graphql';
import { CriticalityLevel, diff, DiffRule } from '@graphql-inspector/core';

/** Where the committed schema lives and where accepted breaks are recorded (docs/api.md, "Schema changes"). */
export const SCHEMA_FILE = 'schema.graphql';
export const CHANGES_FILE = 'docs/schema-changes.md';

/**
 * The changes from the committed schema to `current` that break a client of the committed one
 * (graphql-inspector's criticality). Removing a field, input field or enum value that the committed
 * schema already marks `@deprecated` is not a break: that is the way to retire one.
 */
export async function breakingChanges(committedSDL: string, current: GraphQLSchema): Promise<{ message: string; path?: string }[]> {
  const changes = await diff(buildSchema(committedSDL), current, [DiffRule.suppressRemovalOfDeprecatedField]);
  return changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking).map(({ message, path }) => ({ message, path }));
}

/** A dated entry of CHANGES_FILE: why the contract broke, and each break. */
export function changesEntry(date: string, reason: string, breaks: { message: string }[]): string {
  return `\n## ${date}: ${reason}\n\n${breaks.map((b) => `- ${b.message}`).join('\n')}\n`;
}
