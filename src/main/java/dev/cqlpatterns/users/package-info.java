/**
 * Function group {@code people} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}): users
 * by username and by email (seed 004), one class per query pattern. The group also serves {@code
 * groups}: joining a group reads the user. {@code bin/function-build people} builds the group
 * alone.
 */
package dev.cqlpatterns.users;
