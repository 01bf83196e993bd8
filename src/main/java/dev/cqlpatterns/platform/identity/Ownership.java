package dev.cqlpatterns.platform.identity;

import dev.cqlpatterns.platform.errors.ProblemException;

/**
 * Who may change a writable resource (a course, a song): its owner, the caller who created it.
 * A resource written before owners were recorded has none; the first authenticated caller who
 * changes it claims it, with a conditional write, so of two claimers one wins and the other is
 * then refused like anyone else (the owner columns of courses and songs).
 */
public final class Ownership {

    private Ownership() {}

    /**
     * Passes when {@code caller} may change {@code what}, owned by {@code owner} (null: nobody yet,
     * so the caller may claim it); a 403 problem otherwise. Owners are usernames, which are public.
     */
    public static void require(String owner, String caller, String what) {
        if (owner != null && !owner.equals(caller)) {
            throw ProblemException.forbidden(what + " belongs to " + owner + "; only its owner may change it");
        }
    }
}
