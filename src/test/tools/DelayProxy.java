import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy that adds a fixed one-way latency to every byte, in both directions, without
 * throttling: the kernel has no netem here, so bin/cassandra-local (`net I slow`) DNATs a node's
 * connections to one of these. Run with the JDK 11+ source launcher, no dependencies:
 *
 * <pre>java DelayProxy.java DELAY_MS LISTEN_ADDR:PORT=TARGET_ADDR:PORT[@SOURCE_ADDR] ...</pre>
 *
 * Each mapping listens on LISTEN_ADDR:PORT and forwards every accepted connection to
 * TARGET_ADDR:PORT, its own connection bound to SOURCE_ADDR when given (so that the caller's
 * iptables rules can tell the proxy's connections from the ones they redirect, and not redirect
 * them again). Per direction, a reader stamps each chunk it reads with now + DELAY_MS and queues
 * it; a writer sends the chunks in order, each when it is due. A half-close (EOF) travels the
 * same way, delayed too; a reset or error on either side closes both.
 */
public final class DelayProxy {
    private static final int CHUNK = 64 * 1024;
    /** Bytes queued per direction before the reader waits: a bound on memory, not on throughput at local speeds. */
    private static final int QUEUED_MAX = 16 * 1024 * 1024;

    private static final byte[] EOF = new byte[0];

    private static long delayNanos;

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println(
                    "usage: java DelayProxy.java DELAY_MS LISTEN_ADDR:PORT=TARGET_ADDR:PORT[@SOURCE_ADDR] ...");
            System.exit(2);
        }
        delayNanos = Long.parseLong(args[0]) * 1_000_000L;
        List<Thread> acceptors = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String[] listenAndRest = args[i].split("=", 2);
            String[] targetAndSource = listenAndRest[1].split("@", 2);
            InetSocketAddress listen = address(listenAndRest[0]);
            InetSocketAddress target = address(targetAndSource[0]);
            InetAddress source = targetAndSource.length > 1 ? InetAddress.getByName(targetAndSource[1]) : null;
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(listen, 128);
            acceptors.add(new Thread(() -> accept(server, target, source), "accept " + args[i]));
            log("listening on " + listenAndRest[0] + ", forwarding to " + targetAndSource[0]
                    + (source != null ? " from " + source.getHostAddress() : "") + ", " + args[0] + " ms each way");
        }
        acceptors.forEach(Thread::start);
    }

    private static InetSocketAddress address(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(
                InetAddress.getByName(hostPort.substring(0, colon)), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private static void accept(ServerSocket server, InetSocketAddress target, InetAddress source) {
        while (true) {
            try {
                Socket client = server.accept();
                new Thread(() -> connect(client, target, source), "connect " + client.getRemoteSocketAddress()).start();
            } catch (IOException e) {
                log("accept on " + server.getLocalSocketAddress() + " failed: " + e);
            }
        }
    }

    private static void connect(Socket client, InetSocketAddress target, InetAddress source) {
        Socket upstream = new Socket();
        try {
            if (source != null) upstream.bind(new InetSocketAddress(source, 0));
            upstream.connect(target, 10_000);
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
        } catch (IOException e) {
            log(client.getRemoteSocketAddress() + " -> " + target + ": " + e);
            closeQuietly(client);
            closeQuietly(upstream);
            return;
        }
        AtomicInteger open = new AtomicInteger(2);
        pipe(client, upstream, open);
        pipe(upstream, client, open);
    }

    /** One direction: a reader that stamps and queues, a writer that waits until each chunk is due. */
    private static void pipe(Socket from, Socket to, AtomicInteger open) {
        LinkedBlockingQueue<Object[]> queue = new LinkedBlockingQueue<>();
        Semaphore room = new Semaphore(QUEUED_MAX);
        String name = from.getRemoteSocketAddress() + " -> " + to.getRemoteSocketAddress();
        Thread reader = new Thread(
                () -> {
                    byte[] buffer = new byte[CHUNK];
                    try (InputStream in = from.getInputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            if (n == 0) continue;
                            room.acquireUninterruptibly(n);
                            byte[] chunk = new byte[n];
                            System.arraycopy(buffer, 0, chunk, 0, n);
                            queue.add(new Object[] {System.nanoTime() + delayNanos, chunk});
                        }
                        queue.add(new Object[] {System.nanoTime() + delayNanos, EOF});
                    } catch (IOException e) {
                        // reset or closed: the other side learns it at once, as it would from a lost link's RST
                        closeQuietly(from);
                        closeQuietly(to);
                        queue.add(new Object[] {System.nanoTime(), null});
                    }
                },
                "read " + name);
        Thread writer = new Thread(
                () -> {
                    try {
                        OutputStream out = to.getOutputStream();
                        while (true) {
                            Object[] item = queue.take();
                            long wait;
                            while ((wait = (long) item[0] - System.nanoTime()) > 0) LockSupport.parkNanos(wait);
                            byte[] chunk = (byte[]) item[1];
                            if (chunk == null) return;
                            if (chunk == EOF) {
                                to.shutdownOutput();
                                if (open.decrementAndGet() == 0) {
                                    closeQuietly(from);
                                    closeQuietly(to);
                                }
                                return;
                            }
                            out.write(chunk);
                            room.release(chunk.length);
                        }
                    } catch (IOException | InterruptedException e) {
                        closeQuietly(from);
                        closeQuietly(to);
                        room.release(QUEUED_MAX); // a reader waiting for room gets it, reads the error and ends
                    }
                },
                "write " + name);
        reader.start();
        writer.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that is left to do
        }
    }

    private static void log(String message) {
        System.out.println(java.time.Instant.now() + " " + message);
    }
}
