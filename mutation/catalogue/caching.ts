// Mutations of the caching area (requirements digest).

import type { Mutation } from '../mutation.js';

export const CACHING_MUTATIONS: Mutation[] = [];
