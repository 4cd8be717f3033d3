// Mutations of the tasks area (requirements digest).

import type { Mutation } from '../mutation.js';

export const TASKS_MUTATIONS: Mutation[] = [];
