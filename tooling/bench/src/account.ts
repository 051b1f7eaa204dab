/** The account the benchmark acts as: the demo administrator's. The baselines serve it without auth. */
export const BENCH_ACCOUNT_ID = 1;
/** The demo administrator's user (token role-1-active's), whom ours makes the owner of a new stream; the statement check fails if it is not. */
export const BENCH_USER_ID = 1;
/** The id of that token, which ours writes in a CDN write's audit entry; the statement check fails if it is not. */
export const BENCH_TOKEN_ID = 1;
