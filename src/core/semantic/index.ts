// The semantic tier: envelope, redaction, questions, judges, decide. Hosts use createSemanticTier.
export { createSemanticTier } from './tier';
