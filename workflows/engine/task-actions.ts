// The approver's toolbox beyond approve/reject (claim, return, transfer, delegate, add-sign, ...).
import { Engine } from './engine.js';

export function registerTaskActions(engine: Engine) {
  void engine;
}
