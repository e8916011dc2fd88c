import { AuthResolver } from './auth.resolver.js';
import { EventsResolver } from './events.resolver.js';

export const resolvers = [AuthResolver, EventsResolver] as const;
