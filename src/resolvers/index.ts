import { AuthResolver } from './auth.resolver.js';
import { EventsResolver } from './events.resolver.js';
import { PurchaseResolver } from './purchase.resolver.js';

export const resolvers = [AuthResolver, PurchaseResolver, EventsResolver] as const;
