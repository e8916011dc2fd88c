import { graphql } from './gql/index.js';

/** The documents a storefront client of the GraphQL API would write; typed by graphql-codegen from schema.graphql. */

export const SignIn = graphql(`
  mutation SignIn($input: LoginInput!) {
    login(input: $input) {
      session {
        token
        user {
          id
          role
        }
      }
      userErrors {
        code
        message
      }
    }
  }
`);

export const Product = graphql(`
  query Product($id: Int!) {
    product(id: $id) {
      id
      name
      status
      skus {
        id
        price
        stock
      }
    }
  }
`);

export const SetCartItem = graphql(`
  mutation SetCartItem($input: SetCartItemInput!) {
    setCartItem(input: $input) {
      cart {
        itemCount
      }
      userErrors {
        code
        message
      }
    }
  }
`);

export const Checkout = graphql(`
  mutation Checkout($input: CheckoutInput!) {
    checkout(input: $input) {
      orders {
        id
        status
        total
      }
      userErrors {
        code
        message
        field
        details {
          skuId
          requested
          available
        }
      }
    }
  }
`);

export const MyOrderEvents = graphql(`
  subscription MyOrderEvents($types: [EventType!]) {
    myOrderEvents(types: $types) {
      id
      type
      payload {
        __typename
        ... on OrderPlacedEventPayload {
          orderId
          total
          status
        }
      }
    }
  }
`);
