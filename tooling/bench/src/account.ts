/** The account the benchmark acts as: the demo administrator's. The baselines serve it without auth. */
export const BENCH_ACCOUNT_ID = 1;
