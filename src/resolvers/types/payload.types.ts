import { Field, Int, ObjectType, registerEnumType, type ClassType } from 'type-graphql';
import { ERROR_DETAIL_KINDS, type ErrorDetailKind } from '../../error-details.js';
import { RETIRED_USER_ERROR_CODES, USER_ERROR_CODES, type UserErrorValue } from '../../graphql/user-errors.js';
import { fieldName } from '../../graphql/spelling.js';
import type { ErrorCode } from '../../error-codes.js';

/** The codes a mutation can refuse with, derived from the one list of codes (src/error-codes.ts) by the user-error rule. */
const UserErrorCodeEnum = Object.fromEntries([...USER_ERROR_CODES, ...Object.keys(RETIRED_USER_ERROR_CODES)].map((code) => [code, code]));
registerEnumType(UserErrorCodeEnum, {
  name: 'UserErrorCode',
  description: 'Why a mutation refused its input; the same code as the REST twin answers (docs/api.md lists each)',
  valuesConfig: Object.fromEntries(Object.entries(RETIRED_USER_ERROR_CODES).map(([code, deprecationReason]) => [code, { deprecationReason }])),
});

const DETAIL_TYPES: Partial<Record<ErrorDetailKind, object>> = {
  int: Int,
  string: String,
  enum: String,
  'enum list': [String],
  'date-time': Date,
};

/**
 * `details` of a user error: the REST error's details, camelCased, one typed field per key of the
 * one list (src/error-details.ts); a field is null when the error's code does not carry it.
 * Closed-set values are spelled as the schema's enums spell them (`status: "CANCELLED"`).
 */
@ObjectType('UserErrorDetails', { description: "What the REST error's `details` say, camelCased; only the fields the code carries are set" })
export class UserErrorDetails {}
for (const [key, kind] of Object.entries(ERROR_DETAIL_KINDS)) {
  const type = DETAIL_TYPES[kind];
  if (type) Field(() => type, { nullable: true })(UserErrorDetails.prototype, fieldName(key));
}

@ObjectType('UserError', { description: 'A refusal of the input of a mutation: expected, typed, and the same code and details as over REST' })
export class UserError {
  @Field(() => UserErrorCodeEnum) code!: UserErrorValue['code'];
  @Field({ description: 'For people; the code is for programs' }) message!: string;
  @Field(() => [String], { nullable: true, description: 'Path of the input field at fault from the argument, e.g. ["input", "items", "0", "quantity"]; null: the input as a whole or the object it names' })
  field!: string[] | null;
  @Field(() => UserErrorDetails, { nullable: true }) details!: UserErrorDetails | null;
}

/** A mutation payload's class: its result field's name is `resultKey`, the codes it may refuse with `codes`. */
export interface PayloadClass<K extends string> extends ClassType {
  readonly resultKey: K;
  readonly codes: ReadonlySet<ErrorCode>;
}

/** Codes any mutation may answer as a user error: its input does not fit, or a concurrent write won a unique key. */
const EVERY_MUTATION: readonly ErrorCode[] = ['VALIDATION_FAILED', 'CONFLICT'];
const userErrorCodes = new Set<string>(USER_ERROR_CODES);

/**
 * The payload type of one mutation, `<Name>Payload { <resultKey>: <type>, userErrors: [UserError!]!,
 * errors: [<Name>Error!]! }`: the result is null exactly when the errors are not empty. `errors` holds
 * the same refusals as `userErrors`, typed by the mutation's own enum `<Name>ErrorCode`, which names
 * exactly the codes it can answer (as Saleor types each mutation's errors): its use case's declared
 * refusals (`refusals`, the list its REST twin documents), the input's and a lost unique key's.
 * Resolvers fill it through `answer()`.
 */
export function PayloadType<K extends string>(name: string, resultKey: K, type: () => object, description: string, refusals: readonly ErrorCode[] = []): PayloadClass<K> {
  const codes = [...new Set([...EVERY_MUTATION, ...refusals.filter((code) => userErrorCodes.has(code))])].sort();
  const codeEnum = Object.fromEntries(codes.map((code) => [code, code]));
  registerEnumType(codeEnum, { name: `${name}ErrorCode`, description: `What ${fieldName(name.charAt(0).toLowerCase() + name.slice(1))} can refuse its input with; the same codes as its REST twin answers` });

  @ObjectType(`${name}Error`, { description: `A refusal of ${name.charAt(0).toLowerCase() + name.slice(1)}: its code is one this mutation answers` })
  class MutationError {
    @Field(() => codeEnum) code!: ErrorCode;
    @Field({ description: 'For people; the code is for programs' }) message!: string;
    @Field(() => [String], { nullable: true, description: 'Path of the input field at fault from the argument; null: the input as a whole or the object it names' })
    field!: string[] | null;
    @Field(() => UserErrorDetails, { nullable: true }) details!: UserErrorDetails | null;
  }

  @ObjectType(`${name}Payload`)
  class Payload {
    static readonly resultKey = resultKey;
    static readonly codes: ReadonlySet<ErrorCode> = new Set(codes);
  }
  Field(type, { nullable: true, description })(Payload.prototype, resultKey);
  Field(() => [UserError], { description: 'Why the mutation refused the input, with the codes of every mutation (`UserErrorCode`); empty when it succeeded' })(Payload.prototype, 'userErrors');
  Field(() => [MutationError], { description: `The same refusals, typed by the codes this mutation answers (\`${name}ErrorCode\`); empty when it succeeded` })(Payload.prototype, 'errors');
  return Payload;
}
