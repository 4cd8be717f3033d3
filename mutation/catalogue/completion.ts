// Mutations of the completion area (requirements digest).

import type { Mutation } from '../mutation.js';

export const COMPLETION_MUTATIONS: Mutation[] = [];
