// Mutations of the cancellation area (requirements digest).

import type { Mutation } from '../mutation.js';

export const CANCELLATION_MUTATIONS: Mutation[] = [];
