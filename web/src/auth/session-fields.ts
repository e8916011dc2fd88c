import { graphql } from '../gql';
import type { SessionFieldsFragment } from '../gql/graphql';
import type { Session } from './session';

export const SessionFields = graphql(`
  fragment SessionFields on Session {
    token
    expiresAt
    deviceToken
    user {
      id
      email
      displayName
      role
      shopId
    }
  }
`);

export function toSession(s: SessionFieldsFragment): Session {
  return { token: s.token, expiresAt: s.expiresAt, user: { ...s.user, shopId: s.user.shopId ?? null } };
}
