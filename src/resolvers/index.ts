import { AuthResolver } from './auth.resolver.js';

export const resolvers = [AuthResolver] as const;
