import { buildSchema, type GraphQLSchema } from 'graphql';
import { ChangeType, CriticalityLevel, diff, DiffRule, type Rule } from '@graphql-inspector/core';

/** Where the committed schema lives and where accepted breaks are recorded (docs/api.md, "Schema changes"). */
export const SCHEMA_FILE = 'schema.graphql';
export const CHANGES_FILE = 'docs/schema-changes.md';
/** The schema every break recorded in CHANGES_FILE counts from (commit 59d0a31's). */
export const BASELINE_FILE = 'docs/schema-baseline.graphql';

/**
 * graphql-inspector's rule that lets a deprecated field, input field or enum value go, without the
 * part of it that also lets every removed type go (it calls a type removed when the new schema lacks
 * it, which is always): a client that names a removed input type in its variables breaks.
 */
const removalOfDeprecatedOnly: Rule = async (input) => {
  const suppressed = await DiffRule.suppressRemovalOfDeprecatedField(input);
  return suppressed.map((change, i) => (change.type === ChangeType.TypeRemoved ? input.changes[i] : change));
};

/**
 * The changes from the committed schema to `current` that break a client of the committed one
 * (graphql-inspector's criticality). Removing a field, input field or enum value that the committed
 * schema already marks `@deprecated` is not a break: that is the way to retire one.
 */
export async function breakingChanges(committedSDL: string, current: GraphQLSchema): Promise<{ message: string; path?: string }[]> {
  const changes = await diff(buildSchema(committedSDL), current, [removalOfDeprecatedOnly]);
  return changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking).map(({ message, path }) => ({ message, path }));
}

/** A dated entry of CHANGES_FILE: why the contract broke, and each break. */
export function changesEntry(date: string, reason: string, breaks: { message: string }[]): string {
  return `\n## ${date}: ${reason}\n\n${breaks.map((b) => `- ${b.message}`).join('\n')}\n`;
}

/** Every break CHANGES_FILE records, as its lines (`- <message>`) spell it. */
export function recordedBreaks(changesText: string): Set<string> {
  return new Set(changesText.split('\n').filter((line) => line.startsWith('- ')).map((line) => line.slice(2).trim()));
}

/** The breaks from the baseline schema to `current` that CHANGES_FILE does not record: none, or the record is incomplete. */
export async function unrecordedBreaks(baselineSDL: string, current: GraphQLSchema, changesText: string): Promise<string[]> {
  const recorded = recordedBreaks(changesText);
  return (await breakingChanges(baselineSDL, current)).map((b) => b.message).filter((message) => !recorded.has(message));
}
