// Mutations of the versioning area (requirements digest).

import type { Mutation } from '../mutation.js';

export const VERSIONING_MUTATIONS: Mutation[] = [];
