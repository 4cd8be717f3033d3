// Mutations of the meta area (requirements digest).

import type { Mutation } from '../mutation.js';

export const META_MUTATIONS: Mutation[] = [];
