import { Field, Int, ObjectType, registerEnumType, type ClassType } from 'type-graphql';
import { ERROR_DETAIL_KINDS, type ErrorDetailKind } from '../../error-details.js';
import { RETIRED_USER_ERROR_CODES, USER_ERROR_CODES, type UserErrorValue } from '../../graphql/user-errors.js';
import { fieldName } from '../../graphql/spelling.js';

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

/** A mutation payload's class: its result field's name is `resultKey`. */
export interface PayloadClass<K extends string> extends ClassType {
  readonly resultKey: K;
}

/**
 * The payload type of one mutation, `<Name>Payload { <resultKey>: <type>, userErrors: [UserError!]! }`:
 * the result is null exactly when `userErrors` is not empty. Resolvers fill it through `answer()`.
 */
export function PayloadType<K extends string>(name: string, resultKey: K, type: () => object, description: string): PayloadClass<K> {
  @ObjectType(`${name}Payload`)
  class Payload {
    static readonly resultKey = resultKey;
  }
  Field(type, { nullable: true, description })(Payload.prototype, resultKey);
  Field(() => [UserError], { description: 'Why the mutation refused the input; empty when it succeeded' })(Payload.prototype, 'userErrors');
  return Payload;
}
