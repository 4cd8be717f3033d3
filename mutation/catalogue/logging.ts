// Mutations of the logging area (requirements digest).

import type { Mutation } from '../mutation.js';

export const LOGGING_MUTATIONS: Mutation[] = [];
