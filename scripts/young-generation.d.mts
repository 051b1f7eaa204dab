/** How much the old generation grew (bytes) by `count` runs of the `work` that `setup` defines, in a Node process of its own, and what `work` returned for them. */
export function oldGenerationGrowth(setup: string, options?: { count?: number; env?: Record<string, string> }): Promise<{ grown: number; result: unknown }>;
