// Mutations of the pagination area (requirements digest).

import type { Mutation } from '../mutation.js';

export const PAGINATION_MUTATIONS: Mutation[] = [];
