/** D29: the most joins one organization invite may make (`max_uses`; 1 by default), so one code cannot hand many accounts a cap each. */
export const MAX_INVITE_USES = 1000;
