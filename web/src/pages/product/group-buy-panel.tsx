import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type { GroupBuyFieldsFragment } from '../../gql/graphql';
import { Money } from '../../money/currency-context';
import { Countdown } from '../../ui/countdown';
import { Missing, QueryResult } from '../../ui/query-result';

export const GroupBuyFields = graphql(`
  fragment GroupBuyFields on GroupBuy {
    id
    skuId
    skuName
    productId
    productName
    groupPrice
    standardPrice
    capacity
    lifetimeMinutes
    endsAt
    active
    shop {
      id
      slug
      name
    }
  }
`);

const OpenGroups = graphql(`
  query OpenGroups($id: Int!) {
    groupBuy(id: $id) {
      id
      groups {
        id
        seatsTaken
        seatsLeft
        capacity
        expiresAt
      }
    }
  }
`);

function OpenGroupList({ activityId }: { activityId: number }) {
  const [result] = useQuery({ query: OpenGroups, variables: { id: activityId }, requestPolicy: 'cache-and-network' });
  return (
    <QueryResult result={result} what="Loading open groups">
      {({ groupBuy }) =>
        !groupBuy ? (
          <Missing error={result.error} what="group buy" />
        ) : groupBuy.groups.length === 0 ? (
          <p>No open group right now: open one and invite friends.</p>
        ) : (
          <ul className="group-list">
            {groupBuy.groups.map((g) => (
              <li key={g.id}>
                {g.seatsTaken}/{g.capacity} joined, {g.seatsLeft} seats left · <Countdown until={g.expiresAt} label="closes in" />{' '}
                <Link to={`/checkout?groupBuy=${activityId}&group=${g.id}`} className="button">
                  Join this group
                </Link>
              </li>
            ))}
          </ul>
        )
      }
    </QueryResult>
  );
}

/** A group-buying offer on the product: open a new group or join an open one (both go through checkout). */
export function GroupBuyPanel({ groupBuy }: { groupBuy: GroupBuyFieldsFragment }) {
  const [showGroups, setShowGroups] = useState(false);
  return (
    <section className="group-buy" aria-label={`Group buy: ${groupBuy.skuName}`}>
      <h2>Group buy</h2>
      <p>
        {groupBuy.skuName}: <Money amount={groupBuy.groupPrice} className="money price-now" /> <s><Money amount={groupBuy.standardPrice} /></s> when {groupBuy.capacity} people
        buy together within {groupBuy.lifetimeMinutes} minutes. <Countdown until={groupBuy.endsAt} label="Offer ends in" />
      </p>
      <p className="actions">
        {groupBuy.active ? (
          <Link to={`/checkout?groupBuy=${groupBuy.id}`} className="button primary">
            Open a group
          </Link>
        ) : null}
        <button type="button" onClick={() => setShowGroups(!showGroups)} aria-expanded={showGroups}>
          {showGroups ? 'Hide open groups' : 'Join an open group'}
        </button>
      </p>
      {showGroups ? <OpenGroupList activityId={groupBuy.id} /> : null}
    </section>
  );
}
