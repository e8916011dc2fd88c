/**
 * The field rules of every input schema, and the words their refusals use, in a module that imports
 * nothing but zod: the services parse with them (validate.ts), and the consoles' forms check each
 * field as it is typed with the same schemas (the .inputs.ts files of the services), so both say the same thing.
 */
import { z } from 'zod';

export { z };

/** What a number, a text or a list must be, said as a person would read it under a field. */
function sizeWords(issue: { origin?: string; inclusive?: boolean }, bound: number | bigint, side: 'min' | 'max'): string {
  const n = Number(bound);
  const atLeast = side === 'min' ? (issue.inclusive === false ? 'more than' : 'at least') : issue.inclusive === false ? 'less than' : 'at most';
  switch (issue.origin) {
    case 'string':
      if (side === 'min' && n === 1 && issue.inclusive !== false) return 'must not be empty';
      return `must be ${atLeast} ${n} character${n === 1 ? '' : 's'} long`;
    case 'array':
    case 'set':
      return `must have ${atLeast} ${n} item${n === 1 ? '' : 's'}`;
    case 'date':
      return `must be ${side === 'min' ? 'no earlier' : 'no later'} than ${new Date(n).toISOString()}`;
    default:
      return `must be ${atLeast} ${n.toLocaleString('en-US')}`;
  }
}

const TYPE_WORDS: Record<string, string> = {
  number: 'must be a number',
  int: 'must be a whole number',
  string: 'must be text',
  boolean: 'must be true or false',
  array: 'must be a list',
  object: 'must be an object',
  date: 'must be a date',
};

/**
 * zod's own words ("Too small: expected number to be >=1", "Invalid input: expected number, received
 * NaN") are a developer's; a refusal is read by a person, in a console under the field or in an API
 * answer. A rule that names its own message keeps it (zod asks this only for the others).
 */
export function readableMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'too_small':
      return sizeWords(issue, issue.minimum, 'min');
    case 'too_big':
      return sizeWords(issue, issue.maximum, 'max');
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'is required';
      if (issue.expected === 'null' || issue.expected === 'undefined') return 'must be left out';
      return TYPE_WORDS[issue.expected] ?? `must be ${issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected form' : `must be a valid ${issue.format}`;
    default:
      return undefined;
  }
}

z.config({ customError: readableMessage });

/**
 * Rules of text fields, each one regular expression: the server checks exactly the pattern the OpenAPI
 * document states (ASCII only, so a length means the same in characters and in UTF-16 units).
 * An email address: a dot-atom local part, and a domain of labels that start and end with a letter or
 * digit, under a top-level domain of letters.
 */
const EMAIL = /^[A-Za-z0-9_'+-]+(?:\.[A-Za-z0-9_'+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
/** RFC 3986 path, query and fragment characters: unreserved, sub-delims, `:` `@`, and `%XX` escapes only. */
const URI_CHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})";
const URI_TAIL = `(?:\\?(?:${URI_CHAR}|\\?)*)?(?:#(?:${URI_CHAR}|\\?)*)?`;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const PORT = '(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
const HOST = `(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}|${OCTET}(?:\\.${OCTET}){3})`;
/**
 * The one URL rule of links to images and pages (`image_url`, `logo_url`, `banner_url`...): an absolute
 * http(s) URL whose host is a domain name (labels as for email, a top-level domain of letters) or an
 * IPv4 address, with a port from 1 to 65535 and an RFC 3986 path, query and fragment; or a path of this
 * server's own origin, starting with a single `/` (what the server itself gives, such as
 * `/demo-images/...`, it takes back). Nothing else: no other scheme, no `//host` without one, no
 * character a URL must escape, no bad `%` escape.
 */
const HTTP_URL = new RegExp(`^(?:https?://${HOST}(?::${PORT})?(?:/${URI_CHAR}*)?${URI_TAIL}|/(?![/\\\\])${URI_CHAR}*${URI_TAIL})$`);

/**
 * Text that must not be blank: the services trim it and then want a character. A pattern rather than
 * `min(1)`, so that the document says so too (a client would otherwise think `" "` a valid name), and
 * an empty or blank value is one problem: `.trim().regex(NOT_BLANK, 'must not be blank')`.
 */
export const NOT_BLANK = /\S/;

/** An email address, trimmed and lower-cased before it is checked. */
export const emailAddress = z.string().trim().toLowerCase().max(254).regex(EMAIL, 'must be an email address').meta({ format: 'email' });

/** A link to an image or a page by the one URL rule above, at most `max` characters; the document states the same pattern. */
export const httpUrl = (max = 500) => z.string().max(max).regex(HTTP_URL, 'must be an http(s) URL with a host name or IPv4 address, or a path on this site starting with /').meta({ format: 'uri-reference' });

/**
 * The instants a date input may name: four-digit years, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.
 * PostgreSQL's `timestamptz` holds more (4713 BC to 294276 AD), but a year 0 or below, or above 9999, is
 * no RFC 3339 date-time: neither door can write it back (GraphQL's scalar reads four digits, REST's
 * answers would turn six-digit ISO years), and the ORM sends such a Date in a form PostgreSQL refuses.
 */
export const DATE_RANGE = { earliest: Date.parse('0001-01-01T00:00:00.000Z'), latest: Date.parse('9999-12-31T23:59:59.999Z') } as const;
const DATE_TIME_RULE = 'must be an ISO 8601 date-time with an offset, from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z';
const DATE_RULE = 'must be a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31';
const inRange = (date: Date) => date.getTime() >= DATE_RANGE.earliest && date.getTime() <= DATE_RANGE.latest;

/** zod's pattern for `text`, without year 0000 (the OpenAPI document states the range it can). */
const withoutYearZero = <S extends z.ZodStringFormat>(text: S): S => {
  const { pattern } = z.toJSONSchema(text) as { pattern: string };
  return text.meta({ pattern: `^(?!0000)${pattern.slice(1)}` });
};
const dateTimeText = withoutYearZero(z.iso.datetime({ offset: true, error: DATE_TIME_RULE }));

/**
 * Every date-time input of both doors: a date-time with an offset (`2026-11-26T09:00:00Z`,
 * `...+08:00`) as JSON sends it, or a Date as the GraphQL scalar gives it (which checks its text with
 * `parseDateTimeValue`, the same rule), within DATE_RANGE. Anything else (`false`, `0`, a six-digit
 * year, a date without a time) is VALIDATION_FAILED, never a 500. (A Date cannot come in JSON: the
 * document shows the text form only.)
 */
export const dateTime = z
  .union([z.date(), dateTimeText], { error: DATE_TIME_RULE })
  .transform((v) => new Date(v))
  // Aborting: rules over the whole input (a window's end after its start) never see an impossible date.
  .refine(inRange, { message: DATE_TIME_RULE, abort: true });

/** A date-time (text or Date) as `dateTime` reads it, or the rule's words when it is not one: GraphQL's scalar reads its values with it. */
export function parseDateTimeValue(value: unknown): { date: Date } | { problem: string } {
  const result = dateTime.safeParse(value);
  return result.success ? { date: result.data } : { problem: DATE_TIME_RULE };
}

/**
 * For a rule over several fields (a window's end after its start): it runs only once every field
 * fit, so it never compares a date that was refused (and adds no second problem about it).
 */
export const onceFieldsFit = { when: (payload: z.core.ParsePayload) => payload.issues.length === 0 } as const;

/** A calendar day (`2026-11-26`), in the same years as `dateTime`. */
export const calendarDate = withoutYearZero(z.iso.date({ error: DATE_RULE })).refine((day) => !day.startsWith('0000'), { message: DATE_RULE, abort: true });

/** A yes/no filter: a boolean over GraphQL, `true` or `false` in a query string. */
export const queryFlag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/** A change that must change something: `{}` is refused (the document says `minProperties: 1`). */
export const atLeastOneField = <S extends z.ZodObject>(schema: S) =>
  schema.refine((v) => Object.values(v).some((x) => x !== undefined), 'send at least one field to change').meta({ minProperties: 1 });

/** The largest id: ids are PostgreSQL `integer`s (GraphQL's `Int` has the same bound). */
export const MAX_ID = 2147483647;
const ID_RANGE = `must be a whole number from 1 to ${MAX_ID}`;

/** Common field shapes. Money and quantities are whole numbers: no floats anywhere. */
export const money = z.number().int().min(0).max(2_000_000_000);
export const quantity = z.number().int().min(0).max(1_000_000);

/**
 * A whole number sent as JSON, or as digits in a URL (path segment, query string). Anything else
 * ("1e3", " 7", "", "0x10") is refused instead of being coerced.
 */
export const wholeNumber = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (typeof value === 'string' && /^\d{1,30}$/.test(value) ? Number(value) : value), schema);

/** An id written out as text (a map key): 1 to 2147483647 in decimal, no leading zero. */
export const idText = z
  .string()
  .regex(
    /^(?:[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7])$/,
    ID_RANGE,
  );

/**
 * An id from a path or query parameter, or from JSON: the same bounds, and the same words for them,
 * in every refusal and in the OpenAPI document (`minimum: 1`, `maximum: 2147483647`).
 */
export const idParam = wholeNumber(z.number({ error: ID_RANGE }).int({ error: ID_RANGE }).min(1, { error: ID_RANGE }).max(MAX_ID, { error: ID_RANGE }));

/** An id in a JSON body (or a path parameter handed on inside one): same bounds, same words. */
/** A query string's comma-separated list (`order.paid,order.cancelled`, `3,17`) as the array it stands for. */
export const commaSeparated = (value: unknown) => (typeof value === 'string' ? value.split(',').filter((part) => part !== '') : value);

export const id = z.coerce.number({ error: ID_RANGE }).int({ error: ID_RANGE }).min(1, { error: ID_RANGE }).max(MAX_ID, { error: ID_RANGE });
