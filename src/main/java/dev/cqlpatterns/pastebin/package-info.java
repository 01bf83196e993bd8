/**
 * Function group {@code pastebin} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}):
 * pastes, their public list and their expiry (seed 003), one class per query pattern. {@code
 * bin/function-build pastebin} builds the group alone.
 */
package dev.cqlpatterns.pastebin;
