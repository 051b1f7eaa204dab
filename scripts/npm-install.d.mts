/** `npm install` in a consumer test's project, from the npm registry; one more try after a stall or failure. */
export function npmInstall(folder: string, options?: { attemptMs?: number }): Promise<void>;
