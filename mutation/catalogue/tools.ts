// Mutations of the tools area (requirements digest).

import type { Mutation } from '../mutation.js';

export const TOOLS_MUTATIONS: Mutation[] = [];
