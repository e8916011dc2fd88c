import {
  getNamedType, isEnumType, isInputObjectType, isInterfaceType, isListType, isNonNullType, isObjectType, isScalarType, isUnionType,
  type GraphQLField, type GraphQLInputObjectType, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema,
} from 'graphql';
import { graphqlSchema } from '../src/resolvers/schema.js';
import { ERROR_STATUS, type ErrorCode } from '../src/error-codes.js';
import { RETIRED_USER_ERROR_CODES, USER_ERROR_CODES } from '../src/graphql/user-errors.js';
import { EventTypes } from '../src/services/events/event-types.js';
import { payOrderRefusals } from '../src/services/payments/payment.service.js';

/**
 * The conventions of docs/api.md ("GraphQL conventions"), checked on the schema the code builds, so
 * that a new operation that breaks one fails here, whoever writes it.
 */
let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await graphqlSchema();
});

const ownTypes = () => Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__'));
const mutations = () => Object.values(schema.getMutationType()!.getFields());
const queries = () => Object.values(schema.getQueryType()!.getFields());
const capitalized = (name: string) => name[0].toUpperCase() + name.slice(1);

describe('mutations', () => {
  it('take one non-null `input` of their own `<Name>Input` type (logout, which acts on the caller\u2019s token, takes none)', () => {
    const wrong = mutations().filter((m) => {
      if (m.name === 'logout') return m.args.length !== 0;
      const [arg, ...more] = m.args;
      return more.length > 0 || arg?.name !== 'input' || !isNonNullType(arg.type) || getNamedType(arg.type).name !== `${capitalized(m.name)}Input`;
    });
    expect(wrong.map((m) => m.name)).toEqual([]);
  });

  it('answer a non-null `<Name>Payload` with one nullable result field, `userErrors: [UserError!]!` and `errors: [<Name>Error!]!`', () => {
    const wrong = mutations().filter((m) => {
      const payload = isNonNullType(m.type) ? m.type.ofType : null;
      if (!isObjectType(payload) || payload.name !== `${capitalized(m.name)}Payload`) return true;
      const fields = Object.values(payload.getFields());
      const { userErrors, errors } = payload.getFields();
      const results = fields.filter((f) => f.name !== 'userErrors' && f.name !== 'errors');
      return (
        fields.length !== 3 || results.some((f) => isNonNullType(f.type)) || !userErrors || !errors ||
        String(userErrors.type) !== '[UserError!]!' || String(errors.type) !== `[${capitalized(m.name)}Error!]!`
      );
    });
    expect(wrong.map((m) => m.name)).toEqual([]);
  });

  it('name the codes each can refuse with: `<Name>Error.code` is its own enum, its use case\u2019s declared refusals and the input\u2019s', () => {
    const codesOf = (mutation: string) => {
      const error = schema.getType(`${capitalized(mutation)}Error`) as GraphQLObjectType;
      const code = getNamedType(error.getFields().code.type);
      return isEnumType(code) && code.name === `${capitalized(mutation)}ErrorCode` ? code.getValues().map((v) => v.name) : [];
    };
    for (const m of mutations()) {
      const codes = codesOf(m.name);
      expect({ mutation: m.name, shared: ['CONFLICT', 'VALIDATION_FAILED'].every((c) => codes.includes(c)), foreign: codes.filter((c) => !USER_ERROR_CODES.includes(c as ErrorCode)) })
        .toEqual({ mutation: m.name, shared: true, foreign: [] });
    }
    expect(codesOf('payOrder')).toEqual([...new Set([...payOrderRefusals, 'CONFLICT', 'VALIDATION_FAILED'])].sort());
    expect(codesOf('createPointsProduct')).toEqual(['CONFLICT', 'VALIDATION_FAILED']);
  });

  it('refuse with one code list: UserErrorCode is every listed code a mutation can answer about its input, and only those', () => {
    const codes = schema.getType('UserErrorCode');
    const values = isEnumType(codes) ? codes.getValues() : [];
    expect(values.filter((v) => !v.deprecationReason).map((v) => v.name).sort()).toEqual([...USER_ERROR_CODES].sort());
    // A code no mutation answers any more stays, deprecated, until a later change removes it.
    expect(values.filter((v) => v.deprecationReason).map((v) => v.name).sort()).toEqual(Object.keys(RETIRED_USER_ERROR_CODES).sort());
    for (const code of Object.keys(RETIRED_USER_ERROR_CODES)) expect(Object.keys(ERROR_STATUS)).not.toContain(code);
    const statuses = new Set(USER_ERROR_CODES.map((code) => ERROR_STATUS[code]));
    // 415: a file of a kind the upload does not take (MEDIA_TYPE_UNSUPPORTED) is about the input too.
    expect([...statuses].sort()).toEqual([400, 401, 404, 409, 415, 422]);
    // The caller's token and role, throttling, the request itself and faults stay top-level errors.
    const topLevel: ErrorCode[] = ['UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'FORBIDDEN', 'RATE_LIMITED', 'INTERNAL', 'SERVICE_UNAVAILABLE', 'MALFORMED_JSON', 'METHOD_NOT_ALLOWED', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE', 'RESOURCE_LOCKED'];
    for (const code of topLevel) expect(USER_ERROR_CODES).not.toContain(code);
    for (const code of ['VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_CREDENTIALS', 'CART_CHANGED', 'INSUFFICIENT_STOCK', 'EMAIL_TAKEN'] as const) {
      expect(USER_ERROR_CODES).toContain(code);
    }
  });
});

describe('input types', () => {
  it('are not declared twice: no two input types other than mutation inputs hold the same fields', () => {
    const mutationInputs = new Set(mutations().map((m) => `${capitalized(m.name)}Input`));
    const shapes = new Map<string, string[]>();
    for (const type of ownTypes().filter((t): t is GraphQLInputObjectType => isInputObjectType(t) && !mutationInputs.has(t.name))) {
      const shape = Object.values(type.getFields()).map((f) => `${f.name}:${String(f.type)}`).sort().join(',');
      shapes.set(shape, [...(shapes.get(shape) ?? []), type.name]);
    }
    expect([...shapes.values()].filter((names) => names.length > 1)).toEqual([]);
  });
});

describe('queries', () => {
  /** A required argument that names one object: `id`, `slug` or `<something>Id`. */
  const namesAnObject = (q: GraphQLField<unknown, unknown>) => q.args.some((a) => isNonNullType(a.type) && /^(id|slug|[a-z]+Id)$/.test(a.name));

  it('that name an object (by id or slug, or a list under one named object) are nullable: a missing one is null, not the whole answer', () => {
    const lookups = queries().filter(namesAnObject);
    expect(lookups.length).toBeGreaterThanOrEqual(12);
    expect(lookups.filter((q) => isNonNullType(q.type)).map((q) => q.name)).toEqual([]);
  });

  it('that are lists answer a `...Page` type implementing Page, or a small whole list', () => {
    const page = schema.getType('Page');
    expect(isInterfaceType(page)).toBe(true);
    const pageTypes = ownTypes().filter((t) => t.name.endsWith('Page') && t.name !== 'Page');
    expect(pageTypes.length).toBeGreaterThanOrEqual(16);
    for (const type of pageTypes) {
      expect(isObjectType(type) && type.getInterfaces().map((i) => i.name)).toEqual(['Page']);
      const items = (type as GraphQLObjectType).getFields().items;
      expect(items && isNonNullType(items.type) && isListType(items.type.ofType)).toBe(true);
    }
    const paged = queries().filter((q) => q.args.some((a) => a.name === 'pageSize'));
    const notAPage = paged.filter((q) => !getNamedType(q.type).name.endsWith('Page') && q.name !== 'myFavorites' && q.name !== 'productFacets');
    expect(notAPage.map((q) => q.name)).toEqual([]);
  });
});

describe('names', () => {
  const isOwn = (t: GraphQLNamedType) => !t.name.startsWith('__');

  it('spell every enum value in SCREAMING_SNAKE', () => {
    const wrong = ownTypes().filter(isEnumType).flatMap((e) => e.getValues().filter((v) => !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(v.name)).map((v) => `${e.name}.${v.name}`));
    expect(wrong).toEqual([]);
  });

  it('spell every field and argument in camelCase', () => {
    const wrong: string[] = [];
    for (const type of ownTypes().filter(isOwn)) {
      if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (!/^[a-z][a-zA-Z0-9]*$/.test(field.name)) wrong.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) if (!/^[a-z][a-zA-Z0-9]*$/.test(arg.name)) wrong.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('events', () => {
  it('carry a typed payload: one payload type per event type in the EventPayload union, and no JSON scalar anywhere', () => {
    const union = schema.getType('EventPayload');
    expect(isUnionType(union)).toBe(true);
    const members = isUnionType(union) ? union.getTypes().map((t) => t.name) : [];
    expect(members).toHaveLength(Object.keys(EventTypes).length);
    const expected = Object.keys(EventTypes).map((key) => `${key.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}EventPayload`);
    expect(members.sort()).toEqual(expected.sort());
    expect(ownTypes().filter((t) => isScalarType(t) && /json/i.test(t.name))).toEqual([]);
  });

  it('spell states as the object types do: an order event\u2019s status is an OrderStatus, a group event\u2019s state a GroupState', () => {
    const field = (type: string, name: string) => String((schema.getType(type) as GraphQLObjectType).getFields()[name].type);
    expect(field('OrderPaidEventPayload', 'status')).toBe(field('Order', 'status'));
    expect(field('GroupStateChangedEventPayload', 'state')).toBe(field('BuyingGroup', 'state'));
    expect(field('RefundRequestedEventPayload', 'status')).toBe(field('Refund', 'status'));
  });
});
