// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The Telegraphos NIC authors
// tg-board-sim: two FPGA nodes as the Colorlight board builds them
// (tg_fpga_node, Verilated), their network ports joined by a cable, each
// node's host port a Unix datagram socket carrying one Ethernet frame per
// datagram, so that host programs reach them as they would reach boards on
// a Linux interface (docs/fpga.md, "Simulated boards").
#include "Vtg_board_node0.h"
#include "Vtg_board_node1.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

#include "tg/tg_frame.h"

#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <getopt.h>
#include <memory>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

const unsigned NODES = 2;
const unsigned CORE_DIV = 3;                 // core_clk's period in clk periods (125 / 41.67 MHz)
const uint64_t PS_PER_CYCLE = 8000;          // clk at 125 MHz, for waveforms
const uint64_t RESET_CYCLES = 64;            // rst held high, in clk cycles
// after reset each receive engine clears its block table (256 rows, one a
// core cycle: 1024 clk cycles); frames that arrive meanwhile wait. Twice
// that, to be sure.
const uint64_t CLEAR_CYCLES = 256 * CORE_DIV;
const uint64_t READY_CYCLES = RESET_CYCLES + 2 * CLEAR_CYCLES;
const unsigned GAP = 12;                     // idle cycles at least between frames into a node
const size_t MIN_DGRAM = 14;                 // Ethernet header
const size_t MAX_DGRAM = 1518;               // header, 1500 bytes of payload, VLAN tag
const size_t MIN_FRAME = 60;                 // shorter datagrams are zero-padded to this
const size_t MAX_QUEUED = 256;               // frames waiting for a node's host port
const unsigned POLL_EVERY = 64;              // clk cycles between looks at the sockets
const unsigned MAX_RECV = 64;                // datagrams taken from a socket per look
const uint64_t IDLE_CYCLES = 200000;         // no GMII activity for this long: idle
const int IDLE_WAIT_MS = 10;                 // ... then wait this long for a datagram

volatile sig_atomic_t g_stop = 0;

void on_signal(int) { g_stop = 1; }

// ---------------------------------------------------------------- models
// The pins the glue drives and samples; the same on every node's model.
struct Pins {
    uint8_t clk = 0, core_clk = 0, rst = 1;
    uint8_t net_rxd = 0, net_rx_dv = 0, net_rx_er = 0;
    uint8_t host_rxd = 0, host_rx_dv = 0, host_rx_er = 0;
    uint8_t net_txd = 0, net_tx_en = 0, net_tx_er = 0;
    uint8_t host_txd = 0, host_tx_en = 0, host_tx_er = 0;
    uint8_t ev_drop = 0;
};

// One node's model. Each node is its own Verilated model, since the
// bridge's MAC address (BRIDGE_MAC) is a parameter.
class Board {
public:
    virtual ~Board() = default;
    // drive p's inputs, evaluate, read p's outputs; time for the waveform
    virtual void eval(Pins &p, uint64_t time_ps) = 0;
    virtual bool trace(const std::string &path) = 0;
    virtual void finish() = 0;
};

template <class M> class BoardModel final : public Board {
public:
    BoardModel(uint16_t node_id, bool tracing)
    {
        ctx_.randReset(0);   // registers without a reset start at zero
        ctx_.traceEverOn(tracing);
        top_.reset(new M(&ctx_, ("node" + std::to_string(node_id)).c_str()));
        top_->cfg_node_id = node_id;
    }
    void eval(Pins &p, uint64_t time_ps) override
    {
        M &t = *top_;
        t.clk = p.clk;
        t.net_rx_clk = p.clk;
        t.host_rx_clk = p.clk;
        t.core_clk = p.core_clk;
        t.rst = p.rst;
        t.net_rxd = p.net_rxd, t.net_rx_dv = p.net_rx_dv, t.net_rx_er = p.net_rx_er;
        t.host_rxd = p.host_rxd, t.host_rx_dv = p.host_rx_dv, t.host_rx_er = p.host_rx_er;
        t.eval();
        p.net_txd = t.net_txd, p.net_tx_en = t.net_tx_en, p.net_tx_er = t.net_tx_er;
        p.host_txd = t.host_txd, p.host_tx_en = t.host_tx_en, p.host_tx_er = t.host_tx_er;
        p.ev_drop = t.ev_drop;
        if (vcd_) vcd_->dump(time_ps);
    }
    bool trace(const std::string &path) override
    {
        vcd_.reset(new VerilatedVcdC);
        top_->trace(vcd_.get(), 99);
        vcd_->open(path.c_str());
        return vcd_->isOpen();
    }
    void finish() override
    {
        if (vcd_) vcd_->close();
        top_->final();
    }

private:
    VerilatedContext ctx_;   // declared first: destroyed after the model
    std::unique_ptr<M> top_;
    std::unique_ptr<VerilatedVcdC> vcd_;
};

// ---------------------------------------------------------------- frames
using Bytes = std::vector<uint8_t>;

// Datagrams on their way into a node's host receive port, with preamble,
// start delimiter and FCS, one byte a cycle and at least GAP idle cycles
// between frames.
struct GmiiIn {
    std::deque<Bytes> frames;
    size_t pos = 0;
    unsigned idle = GAP;

    bool busy() const { return !frames.empty() || idle < GAP; }
    void push(const uint8_t *d, size_t n)
    {
        Bytes w(8 + (n < MIN_FRAME ? MIN_FRAME : n) + 4, 0);
        std::memset(w.data(), 0x55, 7);
        w[7] = 0xD5;
        std::memcpy(&w[8], d, n);
        uint32_t fcs = ~tg_crc32_update(0xFFFFFFFFu, &w[8], w.size() - 12);
        for (unsigned i = 0; i < 4; i++) w[w.size() - 4 + i] = (uint8_t)(fcs >> (8 * i));
        frames.push_back(std::move(w));
    }
    void next(uint8_t &dv, uint8_t &d)
    {
        dv = 0, d = 0;
        if (idle < GAP || frames.empty()) {
            if (idle < GAP) idle++;
            return;
        }
        const Bytes &f = frames.front();
        dv = 1, d = f[pos];
        if (++pos == f.size()) {
            frames.pop_front();
            pos = 0;
            idle = 0;
        }
    }
};

// Frames a node sends on its host port: collected and checked (preamble,
// start delimiter, no error symbol, FCS).
struct GmiiOut {
    Bytes cur;
    bool in = false, err = false;

    // a sample after a clk edge; true when a frame ended, good or not
    bool sample(uint8_t en, uint8_t er, uint8_t d)
    {
        if (en) {
            if (!in) cur.clear(), in = true, err = false;
            cur.push_back(d);
            err |= er != 0;
            return false;
        }
        if (!in) return false;
        in = false;
        return true;
    }
    // the frame that ended, without preamble and FCS, or false if it is bad
    bool take(const uint8_t **d, size_t *n) const
    {
        if (err || cur.size() < 8 + MIN_DGRAM + 4) return false;
        for (unsigned i = 0; i < 7; i++)
            if (cur[i] != 0x55) return false;
        if (cur[7] != 0xD5) return false;
        if (tg_crc32_update(0xFFFFFFFFu, &cur[8], cur.size() - 8) != TG_FCS_RESIDUE) return false;
        *d = &cur[8];
        *n = cur.size() - 12;
        return true;
    }
};

struct Counters {
    uint64_t in = 0;            // datagrams driven into the host port
    uint64_t out = 0;           // frames sent back as datagrams
    uint64_t drop_size = 0;     // datagrams shorter than MIN_DGRAM or longer than MAX_DGRAM
    uint64_t drop_full = 0;     // datagrams refused with MAX_QUEUED frames waiting
    uint64_t drop_nopeer = 0;   // frames out with no sender to answer (or an unnamed one)
    uint64_t drop_send = 0;     // frames out whose datagram could not be sent
    uint64_t bad_fcs = 0;       // frames out with a bad FCS, preamble or error symbol
    uint64_t cable = 0;         // frames the node put on the network cable
    uint64_t node_drop = 0;     // frames the node dropped itself (its ev_drop)
    uint64_t lost_in = 0;       // datagrams lost on purpose (--lose) before the host port
    uint64_t lost_out = 0;      // answers lost on purpose (--lose) after it
};

struct Node {
    std::unique_ptr<Board> model;
    Pins pins;
    GmiiIn host_in;
    GmiiOut host_out;
    Counters cnt;
    int fd = -1;
    std::string path;
    sockaddr_un peer{};          // the most recent sender
    socklen_t peer_len = 0;      // 0: none, or unnamed
    uint8_t net_en_d = 0;
    uint64_t in_seen = 0, out_seen = 0;   // datagrams in and answers out, for --lose
};

// ---------------------------------------------------------------- the simulator
class Sim {
public:
    Node nodes[NODES];
    uint64_t cyc = 0;
    uint64_t last_active = 0;    // last cycle with a frame on any GMII link, or waiting
    uint64_t lose_every = 0;     // --lose N: every Nth datagram in and answer out is lost (0: none)

    explicit Sim(bool tracing)
    {
        nodes[0].model.reset(new BoardModel<Vtg_board_node0>(0, tracing));
        nodes[1].model.reset(new BoardModel<Vtg_board_node1>(1, tracing));
    }

    // One clk cycle: inputs, rising edge (core_clk's edges fall on it),
    // outputs, falling edge.
    void tick()
    {
        // core_clk rises every CORE_DIV cycles, high for the longer half
        const uint8_t core_clk = cyc % CORE_DIV < (CORE_DIV + 1) / 2;
        bool active = false;
        for (unsigned i = 0; i < NODES; i++) {
            Node &n = nodes[i];
            const Pins &o = nodes[NODES - 1 - i].pins;
            n.pins.rst = cyc < RESET_CYCLES;
            n.pins.net_rxd = o.net_txd, n.pins.net_rx_dv = o.net_tx_en, n.pins.net_rx_er = o.net_tx_er;
            active |= n.host_in.busy();
            n.host_in.next(n.pins.host_rx_dv, n.pins.host_rxd);
            n.pins.clk = 1;
            n.pins.core_clk = core_clk;
        }
        for (Node &n : nodes) n.model->eval(n.pins, cyc * PS_PER_CYCLE);
        for (Node &n : nodes) {
            Pins &p = n.pins;
            active |= p.net_tx_en || p.host_tx_en;
            n.cnt.cable += p.net_tx_en && !n.net_en_d;
            n.net_en_d = p.net_tx_en;
            n.cnt.node_drop += p.ev_drop;
            if (n.host_out.sample(p.host_tx_en, p.host_tx_er, p.host_txd)) send(n);
            p.clk = 0;
            n.model->eval(p, cyc * PS_PER_CYCLE + PS_PER_CYCLE / 2);
        }
        if (active) last_active = cyc;
        cyc++;
    }

    bool idle() const { return cyc - last_active > IDLE_CYCLES; }

    // Take the datagrams waiting on every socket; first wait up to
    // wait_ms for one to come.
    void service(int wait_ms, double *waited)
    {
        if (wait_ms > 0) {
            pollfd pfd[NODES];
            for (unsigned i = 0; i < NODES; i++) pfd[i] = {nodes[i].fd, POLLIN, 0};
            double t0 = now();
            poll(pfd, NODES, wait_ms);
            *waited += now() - t0;
        }
        for (Node &n : nodes) receive(n);
    }

    static double now()
    {
        timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec * 1e-9;
    }

private:
    void receive(Node &n)
    {
        uint8_t buf[MAX_DGRAM + 1];
        for (unsigned k = 0; k < MAX_RECV; k++) {
            sockaddr_un from{};
            socklen_t from_len = sizeof from;
            ssize_t r = recvfrom(n.fd, buf, sizeof buf, MSG_DONTWAIT | MSG_TRUNC,
                                 reinterpret_cast<sockaddr *>(&from), &from_len);
            if (r < 0) {
                if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                    std::fprintf(stderr, "tg-board-sim: %s: recvfrom: %s\n", n.path.c_str(), std::strerror(errno));
                return;
            }
            size_t len = (size_t)r;
            if (len < MIN_DGRAM || len > MAX_DGRAM) {
                n.cnt.drop_size++;
                continue;
            }
            // answers go to the sender of the latest frame; an unnamed
            // sender (a socket neither bound nor autobound) cannot be answered
            n.peer = from;
            n.peer_len = from_len > offsetof(sockaddr_un, sun_path) ? from_len : 0;
            if (n.host_in.frames.size() >= MAX_QUEUED) {
                n.cnt.drop_full++;
                continue;
            }
            if (lose_every && ++n.in_seen % lose_every == 0) {
                n.cnt.lost_in++;
                continue;
            }
            n.host_in.push(buf, len);
            n.cnt.in++;
        }
    }

    void send(Node &n)
    {
        const uint8_t *d;
        size_t len;
        if (!n.host_out.take(&d, &len)) {
            n.cnt.bad_fcs++;
            return;
        }
        if (!n.peer_len) {
            n.cnt.drop_nopeer++;
            return;
        }
        if (lose_every && ++n.out_seen % lose_every == 0) {
            n.cnt.lost_out++;
            return;
        }
        if (sendto(n.fd, d, len, MSG_DONTWAIT | MSG_NOSIGNAL, reinterpret_cast<const sockaddr *>(&n.peer),
                   n.peer_len) != (ssize_t)len) {
            n.cnt.drop_send++;   // the sender is gone, or its buffer is full
            return;
        }
        n.cnt.out++;
    }
};

// ---------------------------------------------------------------- setup
void usage(FILE *f)
{
    std::fprintf(f,
                 "usage: tg-board-sim --dir DIR [--cycles N] [--trace FILE] [--lose N]\n"
                 "  --dir DIR      bind node i's host port at DIR/node<i>.sock (i = 0, 1), a Unix\n"
                 "                 datagram socket: one datagram is one Ethernet frame, destination\n"
                 "                 MAC to the end of the payload (no preamble, no FCS); answers go\n"
                 "                 to the latest sender (DIR is created if missing)\n"
                 "  --cycles N     stop after N cycles of clk (125 MHz), reset included, running\n"
                 "                 flat out (default: until SIGINT or SIGTERM, waiting while idle)\n"
                 "  --trace FILE   waveforms, one file per node (FILE.N.vcd, or %%u in FILE)\n"
                 "  --lose N       lose every Nth datagram to each host port and every Nth answer\n"
                 "                 from it (N >= 2), as a lossy wire would: tests resends\n"
                 "  --help         this text\n");
}

[[noreturn]] __attribute__((format(printf, 1, 2))) void bad_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "tg-board-sim: ");
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, " (see --help)\n");
    va_end(ap);
    std::exit(2);
}

// node's file name from --trace FILE: %u replaced, or .N before the extension
std::string trace_name(const std::string &path, unsigned node)
{
    const std::string id = std::to_string(node);
    size_t pct = path.find("%u");
    if (pct != std::string::npos) return path.substr(0, pct) + id + path.substr(pct + 2);
    size_t dot = path.rfind('.'), slash = path.rfind('/');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
        return path.substr(0, dot) + "." + id + path.substr(dot);
    return path + "." + id;
}

// mkdir -p
bool make_dir(const std::string &dir)
{
    for (size_t i = 1; i <= dir.size(); i++) {
        if (i < dir.size() && dir[i] != '/') continue;
        std::string p = dir.substr(0, i);
        if (mkdir(p.c_str(), 0777) && errno != EEXIST) return false;
    }
    struct stat st;
    if (stat(dir.c_str(), &st)) return false;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return true;
}

// Bind a datagram socket at path, after removing a stale socket there; a
// socket something still listens on is not taken over.
int bind_socket(const std::string &path)
{
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
    struct stat st;
    if (lstat(path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            std::fprintf(stderr, "tg-board-sim: %s exists and is not a socket\n", path.c_str());
            return -1;
        }
        int probe = socket(AF_UNIX, SOCK_DGRAM, 0);
        bool live = probe >= 0 && connect(probe, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
        if (probe >= 0) close(probe);
        if (live) {
            std::fprintf(stderr, "tg-board-sim: %s is in use by another process\n", path.c_str());
            return -1;
        }
        unlink(path.c_str());
    }
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a)) {
        std::fprintf(stderr, "tg-board-sim: %s: %s\n", path.c_str(), std::strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

} // namespace

int main(int argc, char **argv)
{
    static const option opts[] = {
        {"dir", required_argument, nullptr, 'd'},
        {"cycles", required_argument, nullptr, 'c'},
        {"trace", required_argument, nullptr, 't'},
        {"lose", required_argument, nullptr, 'l'},
        {"help", no_argument, nullptr, 'h'},
        {nullptr, 0, nullptr, 0},
    };
    std::string dir, trace;
    uint64_t max_cycles = 0, lose_every = 0;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, ":", opts, nullptr)) != -1;) {
        switch (c) {
        case 'd': dir = optarg; break;
        case 't':
            if (!*optarg) bad_usage("--trace needs a file name");
            trace = optarg;
            break;
        case 'c': {
            char *end;
            errno = 0;
            unsigned long long v = std::strtoull(optarg, &end, 0);
            if (!*optarg || *optarg == '-' || *end || errno || v == 0)
                bad_usage("--cycles needs a positive number, not '%s'", optarg);
            max_cycles = v;
            break;
        }
        case 'l': {
            char *end;
            errno = 0;
            unsigned long long v = std::strtoull(optarg, &end, 0);
            if (!*optarg || *optarg == '-' || *end || errno || v < 2)
                bad_usage("--lose needs a number of at least 2, not '%s'", optarg);
            lose_every = v;
            break;
        }
        case 'h': usage(stdout); return 0;
        case ':': bad_usage("%s needs an argument", argv[optind - 1]);
        default: bad_usage("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) bad_usage("unexpected argument '%s'", argv[optind]);
    if (dir.empty()) bad_usage("--dir DIR is required");
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (dir.size() + sizeof "/node0.sock" > sizeof(sockaddr_un::sun_path))
        bad_usage("socket paths under '%s' are too long for a Unix socket", dir.c_str());

    if (!make_dir(dir)) {
        std::fprintf(stderr, "tg-board-sim: %s: %s\n", dir.c_str(), std::strerror(errno));
        return 1;
    }
    std::unique_ptr<Sim> sim(new Sim(!trace.empty()));
    sim->lose_every = lose_every;
    int rc = 0;
    for (unsigned i = 0; i < NODES && !rc; i++) {
        Node &n = sim->nodes[i];
        n.path = dir + "/node" + std::to_string(i) + ".sock";
        if ((n.fd = bind_socket(n.path)) < 0) rc = 1;
        if (!rc && !trace.empty() && !n.model->trace(trace_name(trace, i))) {
            std::fprintf(stderr, "tg-board-sim: cannot write %s\n", trace_name(trace, i).c_str());
            rc = 1;
        }
    }

    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);

    double t_ready = 0, waited = 0;
    uint64_t ready_cyc = 0;
    if (!rc) {
        while (sim->cyc < READY_CYCLES && !g_stop) sim->tick();
        if (!g_stop)
            std::printf("tg-board-sim: ready, %u nodes, sockets in %s\n", NODES, dir.c_str());
        std::fflush(stdout);
        t_ready = Sim::now();
        ready_cyc = sim->cyc;
        // with --cycles the run is bounded: it never waits
        while (!g_stop && (!max_cycles || sim->cyc < max_cycles)) {
            bool queued = false;
            for (const Node &n : sim->nodes) queued |= !n.host_in.frames.empty();
            sim->service(!max_cycles && !queued && sim->idle() ? IDLE_WAIT_MS : 0, &waited);
            for (unsigned k = 0; k < POLL_EVERY && (!max_cycles || sim->cyc < max_cycles); k++) sim->tick();
        }
    }

    for (Node &n : sim->nodes) {
        if (n.fd >= 0) {
            close(n.fd);
            unlink(n.path.c_str());
        }
        n.model->finish();
    }
    if (rc) return rc;

    double secs = Sim::now() - t_ready;
    uint64_t run = sim->cyc - ready_cyc;
    std::fprintf(stderr, "tg-board-sim: %llu cycles (%llu after ready) in %.2f s: %.0f cycles/s, "
                 "%.0f cycles/s not counting %.2f s idle\n",
                 (unsigned long long)sim->cyc, (unsigned long long)run, secs, secs > 0 ? run / secs : 0.0,
                 secs - waited > 0 ? run / (secs - waited) : 0.0, waited);
    for (unsigned i = 0; i < NODES; i++) {
        const Counters &c = sim->nodes[i].cnt;
        std::fprintf(stderr,
                     "tg-board-sim: node %u: frames in %llu, out %llu; dropped %llu (in: %llu bad size, "
                     "%llu queue full; out: %llu no sender, %llu send failed); bad FCS %llu; "
                     "cable frames %llu; node drops %llu; lost on purpose %llu in, %llu out\n",
                     i, (unsigned long long)c.in, (unsigned long long)c.out,
                     (unsigned long long)(c.drop_size + c.drop_full + c.drop_nopeer + c.drop_send),
                     (unsigned long long)c.drop_size, (unsigned long long)c.drop_full,
                     (unsigned long long)c.drop_nopeer, (unsigned long long)c.drop_send,
                     (unsigned long long)c.bad_fcs, (unsigned long long)c.cable, (unsigned long long)c.node_drop,
                     (unsigned long long)c.lost_in, (unsigned long long)c.lost_out);
    }
    return 0;
}
