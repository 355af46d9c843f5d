// The approvals core for the hosts (server, extension, CLI).
export { checkBindable } from './bindable';
export { argsDigest } from './digest';
