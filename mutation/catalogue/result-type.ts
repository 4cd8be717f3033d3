// Mutations of the result-type area (requirements digest).

import type { Mutation } from '../mutation.js';

export const RESULT_TYPE_MUTATIONS: Mutation[] = [];
