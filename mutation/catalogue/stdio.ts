// Mutations of the stdio area (requirements digest).

import type { Mutation } from '../mutation.js';

export const STDIO_MUTATIONS: Mutation[] = [];
