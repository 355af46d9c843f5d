/** What a project produces or logs (build output, caches, logs): deleting or emptying it is housekeeping. */
export const PRODUCED =
  /(^|\/)(logs?|tmp|temp|cache|\.cache|dist|build|out|target|coverage|node_modules|__pycache__|\.pytest_cache|\.next|\.nuxt|\.turbo)(\/|$)|\.(log|out|tmp|pid|lock\.tmp|pyc|pyo|o|a|so|class|map)$/i;
