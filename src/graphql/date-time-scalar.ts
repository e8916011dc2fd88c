import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { parseDateTimeValue } from '../shared/validate.js';

/** What an answer carries: a Date, or a timestamp the database gave as text (an event's `occurredAt`). */
function serialize(value: unknown): string {
  const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) throw new GraphQLError(`DateTimeISO cannot represent ${JSON.stringify(value)}`);
  return date.toISOString();
}

function parse(value: unknown): Date {
  const parsed = parseDateTimeValue(value);
  if ('problem' in parsed) throw new GraphQLError(`DateTimeISO ${parsed.problem}`);
  return parsed.date;
}

/**
 * The schema's date-time scalar, under the name type-graphql gives it (`DateTimeISO`), reading its
 * inputs with the services' own date rule (src/shared/validate.ts `dateTime`): the same forms and
 * the same range as REST, so a date neither door could store is refused before any resolver runs.
 * Answers are ISO 8601 in UTC with milliseconds.
 */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTimeISO',
  description:
    'A date-time in RFC 3339 form with an offset, such as 2007-12-03T10:15:30Z or 2007-12-03T18:15:30+08:00, ' +
    'from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z. Answered in UTC with milliseconds.',
  serialize,
  parseValue: parse,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTimeISO must be a string', { nodes: ast });
    return parse(ast.value);
  },
  specifiedByURL: 'https://datatracker.ietf.org/doc/html/rfc3339#section-5.6',
});
