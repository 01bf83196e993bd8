package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.http.WebUrls;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The contract's schema of one attachment's URL (the service checks it with WebUrls). */
@Schema(
        name = "AttachmentUrl",
        type = SchemaType.STRING,
        maxLength = 2000,
        pattern = WebUrls.PATTERN,
        description = "Absolute http(s) URL with a host",
        examples = "https://example.com/map.png")
final class AttachmentUrl {
    private AttachmentUrl() {}
}
