package dev.cqlpatterns.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.Version;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The open model's HTTP/1.1 client, on the Netty the driver already brings: a fixed pool of keep-alive
 * connections, one request in flight on each (no pipelining). A request that finds every connection
 * busy waits in this client's queue, first come first sent; the caller counts its latency from its due
 * time, so that wait is counted too. {@link #send} never blocks: it queues and returns a future.
 * Bodies are read and dropped unless asked for.
 *
 * <p>Why not the JDK's {@code java.net.http.HttpClient}: on this 2-core machine it tops out near 3,000
 * requests a second by itself, below the rates the saturation goals need at half load.
 */
final class AsyncHttp implements AutoCloseable {
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** What to send: this client and the wrk script of the saturation mode both take it. */
    record Request(String method, String path, Map<String, String> headers, String body) {
        static Request get(String path, String token) {
            return new Request("GET", path, auth(token, new LinkedHashMap<>()), null);
        }

        static Request post(String path, String token, String json) {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Content-Type", "application/json");
            return new Request("POST", path, auth(token, headers), json);
        }

        private static Map<String, String> auth(String token, Map<String, String> headers) {
            if (token != null) {
                headers.put("Authorization", "Bearer " + token);
            }
            return Map.copyOf(headers);
        }
    }

    /** An answer: its status, headers, and its body when asked for (null otherwise). */
    record Response(int status, HttpHeaders headers, String body) {
        /** A numeric header, or -1 when absent. */
        long header(String name) {
            String v = headers.get(name);
            return v == null ? -1 : Long.parseLong(v.strip());
        }
    }

    private record Pending(Request request, boolean body, CompletableFuture<Response> answer) {}

    private final String host;
    private final int port;
    private final String hostHeader;
    private final int connections;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final Queue<Pending> waiting = new ConcurrentLinkedQueue<>();
    private final Queue<Connection> idle = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    AsyncHttp(String baseUrl, int connections) {
        URI base = URI.create(baseUrl);
        this.host = base.getHost();
        this.port = base.getPort() > 0 ? base.getPort() : 80;
        this.hostHeader = base.getAuthority();
        this.connections = connections;
        // Two I/O threads: the machine's cores, which the service and Cassandra share.
        this.group = new NioEventLoopGroup(Math.min(2, Runtime.getRuntime().availableProcessors()));
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000);
        for (int i = 0; i < connections; i++) {
            connect(false);
        }
    }

    /** Which client this is, for the results. */
    String describe() {
        Version netty = Version.identify().get("netty-codec-http");
        return "Netty " + (netty == null ? "?" : netty.artifactVersion()) + " HTTP/1.1, " + connections
                + " keep-alive connections, one request in flight each, the rest queued in the client";
    }

    /** Sends when a connection is free, in the order sent; the body is kept only when {@code body}. */
    CompletableFuture<Response> send(Request request, boolean body) {
        Pending p = new Pending(request, body, new CompletableFuture<>());
        waiting.add(p);
        drain();
        return p.answer();
    }

    CompletableFuture<Response> send(Request request) {
        return send(request, false);
    }

    /**
     * Pairs waiting requests with idle connections. Both sides add themselves first and drain after,
     * so neither a request nor a connection is left waiting while the other is there.
     */
    private void drain() {
        while (!waiting.isEmpty()) {
            Connection c = idle.poll();
            if (c == null) {
                return;
            }
            Pending p = waiting.poll();
            if (p == null) {
                idle.add(c);
                continue;
            }
            c.start(p);
        }
    }

    private void connect(boolean later) {
        if (closed) {
            return;
        }
        if (later) {
            group.schedule(() -> connect(false), 200, TimeUnit.MILLISECONDS);
            return;
        }
        Connection c = new Connection();
        ChannelFuture connected = bootstrap
                .clone()
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), c);
                    }
                })
                .connect(host, port);
        c.channel = connected.channel();
        connected.addListener(f -> {
            if (f.isSuccess()) {
                idle.add(c);
                drain();
            } else {
                connect(true);
            }
        });
    }

    /** One keep-alive connection and the request on it, if any; its state is touched on its event loop only. */
    private final class Connection extends SimpleChannelInboundHandler<HttpObject> {
        private Channel channel;
        private Pending current;
        private int status;
        private HttpHeaders headers;
        private StringBuilder body;
        private boolean keepAlive;
        private ScheduledFuture<?> timeout;

        void start(Pending p) {
            if (channel.eventLoop().inEventLoop()) {
                write(p);
            } else {
                channel.eventLoop().execute(() -> write(p));
            }
        }

        private void write(Pending p) {
            if (!channel.isActive()) {
                // Closed while idle (its replacement is on the way): the request waits for another one.
                waiting.add(p);
                drain();
                return;
            }
            current = p;
            Request r = p.request();
            byte[] bytes = r.body() == null ? new byte[0] : r.body().getBytes(StandardCharsets.UTF_8);
            FullHttpRequest request = new DefaultFullHttpRequest(
                    HttpVersion.HTTP_1_1, HttpMethod.valueOf(r.method()), r.path(), Unpooled.wrappedBuffer(bytes));
            HttpHeaders h = request.headers();
            h.set(HttpHeaderNames.HOST, hostHeader);
            r.headers().forEach(h::set);
            if (r.body() != null || !r.method().equals("GET")) {
                HttpUtil.setContentLength(request, bytes.length);
            }
            timeout = channel.eventLoop()
                    .schedule(
                            () -> {
                                fail(new TimeoutException("no answer in 10 s"));
                                channel.close();
                            },
                            TIMEOUT_NANOS,
                            TimeUnit.NANOSECONDS);
            channel.writeAndFlush(request).addListener(f -> {
                if (!f.isSuccess()) {
                    fail(f.cause());
                    channel.close();
                }
            });
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (msg instanceof HttpResponse r) {
                status = r.status().code();
                headers = r.headers();
                keepAlive = HttpUtil.isKeepAlive(r);
                body = current != null && current.body() ? new StringBuilder() : null;
            }
            if (msg instanceof HttpContent content && body != null) {
                body.append(content.content().toString(StandardCharsets.UTF_8));
            }
            if (msg instanceof LastHttpContent) {
                Pending p = current;
                current = null;
                if (timeout != null) {
                    timeout.cancel(false);
                }
                Response answer = new Response(status, headers, body == null ? null : body.toString());
                body = null;
                // Free for the next request before this one's callbacks run; a connection the server
                // closes is replaced once it is closed (channelInactive).
                if (keepAlive) {
                    idle.add(this);
                    drain();
                } else {
                    channel.close();
                }
                if (p != null) {
                    p.answer().complete(answer);
                }
            }
        }

        private void fail(Throwable t) {
            Pending p = current;
            current = null;
            if (timeout != null) {
                timeout.cancel(false);
            }
            if (p != null) {
                p.answer().completeExceptionally(t);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(new IOException("connection closed"));
            idle.remove(this);
            connect(true);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(cause);
            ctx.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        Pending p;
        while ((p = waiting.poll()) != null) {
            p.answer().completeExceptionally(new IOException("client closed"));
        }
    }
}
