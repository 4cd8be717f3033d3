// Mutations of the http area (requirements digest).

import type { Mutation } from '../mutation.js';

export const HTTP_MUTATIONS: Mutation[] = [];
