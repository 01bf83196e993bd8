package dev.cqlpatterns.platform.identity;

/**
 * What a username looks like, in every feature: a token's subject, a user, a member of a
 * conversation or a group. One rule, so a name one route accepts is never refused by another.
 */
public final class Usernames {
    public static final String PATTERN = "^[a-z0-9_.-]{3,32}$";
    public static final String MESSAGE = "must be 3 to 32 characters of a-z, 0-9, _ . -";

    private Usernames() {
    }
}
