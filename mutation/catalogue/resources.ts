// Mutations of the resources area (requirements digest).

import type { Mutation } from '../mutation.js';

export const RESOURCES_MUTATIONS: Mutation[] = [];
