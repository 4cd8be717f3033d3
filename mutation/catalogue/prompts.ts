// Mutations of the prompts area (requirements digest).

import type { Mutation } from '../mutation.js';

export const PROMPTS_MUTATIONS: Mutation[] = [];
