// Mutations of the lifecycle area (requirements digest).

import type { Mutation } from '../mutation.js';

export const LIFECYCLE_MUTATIONS: Mutation[] = [];
