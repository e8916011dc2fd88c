import { graphql } from '../gql';

/** What every mutation document selects of its payload's user errors (shown by ErrorNotice). */
export const UserErrorFields = graphql(`
  fragment UserErrorFields on UserError {
    code
    message
    field
  }
`);
