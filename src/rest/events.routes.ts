import type { Router } from 'express';
import * as feed from '../services/events/event-feed.service.js';
import { route } from './route.js';
import { EventPage } from './responses/events.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Events';

/** The event feed for clients that poll: the subscriptions' events, resumable by id. */
export function eventRoutes(router: Router) {
  route(router, '/events', {
    get: {
      doc: {
        tag,
        summary: 'Stored events after an id, oldest first (admins: all; shop operators: their shop; customers: their orders)',
        permission: Permission.SignedIn,
        query: feed.EventPageQuery,
        response: EventPage,
        errors: feed.listEventsRefusals,
      },
      handle: ({ ctx, query }) => feed.listEvents(ctx, query),
    },
  });
}
