// Mutations of the progress area (requirements digest).

import type { Mutation } from '../mutation.js';

export const PROGRESS_MUTATIONS: Mutation[] = [];
