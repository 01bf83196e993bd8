/**
 * Function group {@code people} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}): groups
 * and their members (seed 004), one class per query pattern. The group also serves {@code users}:
 * joining a group reads the user. {@code bin/function-build people} builds the group alone.
 */
package dev.cqlpatterns.groups;
