// Mutations of the client-role area (requirements digest).

import type { Mutation } from '../mutation.js';

export const CLIENT_ROLE_MUTATIONS: Mutation[] = [];
