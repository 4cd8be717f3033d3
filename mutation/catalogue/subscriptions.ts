// Mutations of the subscriptions area (requirements digest).

import type { Mutation } from '../mutation.js';

export const SUBSCRIPTIONS_MUTATIONS: Mutation[] = [];
