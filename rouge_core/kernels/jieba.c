/* jieba's default cut, compiled (see jieba.h): jieba/__init__.py's Tokenizer.cut with
 * cut_all=False, HMM=True, and jieba/finalseg's cut, step for step:
 *
 * 1. the text splits into blocks of re_han_default ([\u4E00-\u9FD5a-zA-Z0-9+#&._%-]+) and the
 *    gaps between them; a gap gives one word per character, but "\r\n", which is one word
 *    (re_skip_default "(\r\n|\s)": the rest of a gap goes out character by character);
 * 2. a block: its DAG from the prefix dictionary (from each k, every i with FREQ[block[k:i+1]]
 *    non-zero while block[k:i+1] is in FREQ; k itself when none), the route from the end
 *    (route[k] = max over the DAG of (log(FREQ or 1) - log(total) + route[i+1], i): the larger
 *    i wins a tie, as Python's tuple max), then words along the route, single characters
 *    gathered in a buffer;
 * 3. a buffer of more than one character that is not a dictionary word (FREQ zero or absent)
 *    goes to finalseg's HMM; one that is a word gives its characters; one character itself;
 * 4. finalseg: runs of [\u4E00-\u9FD5] through the Viterbi path over B/M/E/S (ties to the
 *    larger state letter, as its tuple max), words cut at E and S; between the runs,
 *    [a-zA-Z0-9]+(?:\.\d+)?%? words and the text between them.
 * Every float is computed as jieba computes it (same operations, same order), so every
 * comparison, and every tie, comes out the same. */
#include "jieba.h"

#include <math.h>

#define MIN_FLOAT (-3.14e100) /* finalseg's MIN_FLOAT */
#define HAN_SPAN (JIEBA_HAN_LAST - JIEBA_HAN_FIRST + 1)

/* The prefix dictionary as a trie (FREQ holds every prefix of its words, so jieba's DAG walk
 * "while block[k:i+1] in FREQ" is a walk down from the root): one hash table of edges
 * (node, next character) -> child, each edge carrying its child's entry, so that each step of
 * the walk reads one slot. Node 0 is the root. */
typedef struct {
    uint32_t parent, ch;
    uint32_t child;   /* 0: an empty slot */
    uint32_t present; /* the child's string is a key of FREQ */
    int64_t freq;
    double logf; /* log(freq or 1) */
} Edge;

struct JiebaModel {
    Edge *root; /* the root's edges by character in the Basic Multilingual Plane (jieba_finish) */
    Edge *slots;
    isize mask, used;
    uint32_t nodes;
    double logtotal;
    double start[JIEBA_STATES];
    double trans[JIEBA_STATES][JIEBA_STATES];
    double *emit; /* [state][ch - JIEBA_HAN_FIRST] */
};

static inline isize slot_of(const JiebaModel *m, uint32_t parent, uint32_t ch) {
    u64 h = (((u64)parent << 32) | ch) * 0x9E3779B97F4A7C15ULL;
    return (isize)((h ^ (h >> 31)) & (u64)m->mask);
}

/* The edge from `parent` by `ch`, or NULL. */
static inline const Edge *edge(const JiebaModel *m, uint32_t parent, uint32_t ch) {
    if (!parent && m->root && ch < 0x10000) return m->root[ch].child ? &m->root[ch] : NULL;
    for (isize i = slot_of(m, parent, ch);; i = (i + 1) & m->mask) {
        const Edge *e = &m->slots[i];
        if (!e->child) return NULL;
        if (e->parent == parent && e->ch == ch) return e;
    }
}

/* FREQ's entry of w[0:len], or NULL when w is not a key. */
static const Edge *lookup(const JiebaModel *m, const uint32_t *w, isize len) {
    const Edge *e = NULL;
    uint32_t node = 0;
    for (isize k = 0; k < len; k++) {
        if (!(e = edge(m, node, w[k]))) return NULL;
        node = e->child;
    }
    return e && e->present ? e : NULL;
}

JiebaModel *jieba_new(isize words) {
    JiebaModel *m = xcalloc(1, sizeof *m);
    if (!m) return NULL;
    isize cap = 16;
    while (cap < 2 * words + 16) cap *= 2;
    m->slots = xcalloc((size_t)cap, sizeof(Edge));
    m->emit = xmalloc((size_t)JIEBA_STATES * HAN_SPAN * sizeof(double));
    if (!m->slots || !m->emit) {
        jieba_free(m);
        return NULL;
    }
    m->mask = cap - 1;
    for (isize k = 0; k < (isize)JIEBA_STATES * HAN_SPAN; k++) m->emit[k] = MIN_FLOAT;
    for (int a = 0; a < JIEBA_STATES; a++) {
        m->start[a] = MIN_FLOAT;
        for (int b = 0; b < JIEBA_STATES; b++) m->trans[a][b] = MIN_FLOAT;
    }
    return m;
}

void jieba_free(JiebaModel *m) {
    if (!m) return;
    FREE_ALL(m->root, m->slots, m->emit);
    free(m);
}

static int rehash(JiebaModel *m) {
    JiebaModel bigger = *m;
    bigger.mask = 2 * (m->mask + 1) - 1;
    if (!(bigger.slots = xcalloc((size_t)bigger.mask + 1, sizeof(Edge)))) return -1;
    for (isize i = 0; i <= m->mask; i++) {
        Edge *e = &m->slots[i];
        if (!e->child) continue;
        isize j = slot_of(&bigger, e->parent, e->ch);
        while (bigger.slots[j].child) j = (j + 1) & bigger.mask;
        bigger.slots[j] = *e;
    }
    free(m->slots);
    m->slots = bigger.slots;
    m->mask = bigger.mask;
    return 0;
}

int jieba_add(JiebaModel *m, const uint32_t *word, isize len, int64_t freq) {
    if (len < 1) return 0; /* "" is never a slice jieba looks up */
    Edge *e = NULL;
    uint32_t node = 0;
    for (isize k = 0; k < len; k++) {
        e = (Edge *)edge(m, node, word[k]);
        if (!e) {
            if (m->nodes == UINT32_MAX - 1) return -1;
            if (2 * (m->used + 1) > m->mask + 1 && rehash(m) < 0) return -1;
            isize i = slot_of(m, node, word[k]);
            while (m->slots[i].child) i = (i + 1) & m->mask;
            e = &m->slots[i];
            e->parent = node, e->ch = word[k], e->child = ++m->nodes, e->present = 0, e->freq = 0, e->logf = 0.0;
            m->used++;
        }
        node = e->child;
    }
    e->present = 1;
    e->freq = freq;
    e->logf = log(freq ? (double)freq : 1.0);
    return 0;
}

int jieba_finish(JiebaModel *m) {
    Edge *root = xcalloc(0x10000, sizeof(Edge));
    if (!root) return -1;
    for (isize i = 0; i <= m->mask; i++)
        if (m->slots[i].child && !m->slots[i].parent && m->slots[i].ch < 0x10000) root[m->slots[i].ch] = m->slots[i];
    m->root = root;
    return 0;
}

void jieba_set_logtotal(JiebaModel *m, double logtotal) { m->logtotal = logtotal; }
void jieba_set_start(JiebaModel *m, int state, double p) { m->start[state] = p; }
void jieba_set_trans(JiebaModel *m, int from, int to, double p) { m->trans[from][to] = p; }
void jieba_set_emit(JiebaModel *m, int state, uint32_t ch, double p) {
    if (ch >= JIEBA_HAN_FIRST && ch <= JIEBA_HAN_LAST) m->emit[(isize)state * HAN_SPAN + (ch - JIEBA_HAN_FIRST)] = p;
}

static inline int is_han(uint32_t c) { return c >= JIEBA_HAN_FIRST && c <= JIEBA_HAN_LAST; }
static inline int is_alnum(uint32_t c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static inline int in_block(uint32_t c) { /* re_han_default's class */
    return is_han(c) || is_alnum(c) || c == '+' || c == '#' || c == '&' || c == '.' || c == '_' || c == '%' ||
           c == '-';
}

/* Work arrays of one cut, sized for the longest block. */
typedef struct {
    double *value;     /* route[k][0] */
    isize *route;      /* route[k][1] */
    isize *states;     /* the Viterbi path */
    signed char *back; /* Viterbi back pointers, [t][state] */
    double *v;         /* Viterbi probabilities, [t][state] */
} Work;

/* finalseg's Viterbi on a run of Han characters: the words' ends (absolute: base + offset). */
static isize hmm_cut(const JiebaModel *m, const uint32_t *s, isize n, isize base, isize *ends, Work *w) {
    static const int prev[JIEBA_STATES][2] = {
        [JIEBA_B] = {JIEBA_E, JIEBA_S}, [JIEBA_M] = {JIEBA_M, JIEBA_B},
        [JIEBA_S] = {JIEBA_S, JIEBA_E}, [JIEBA_E] = {JIEBA_B, JIEBA_M}};
    static const int order[JIEBA_STATES] = {JIEBA_B, JIEBA_M, JIEBA_E, JIEBA_S}; /* 'BMES' */
    double *v = w->v;  /* [t][state] */
    signed char *back = w->back;
    for (int k = 0; k < JIEBA_STATES; k++) {
        int y = order[k];
        v[y] = m->start[y] + m->emit[(isize)y * HAN_SPAN + (s[0] - JIEBA_HAN_FIRST)];
        back[y] = -1;
    }
    for (isize t = 1; t < n; t++) {
        for (int k = 0; k < JIEBA_STATES; k++) {
            int y = order[k];
            double em = m->emit[(isize)y * HAN_SPAN + (s[t] - JIEBA_HAN_FIRST)];
            int best = -1;
            double best_p = 0;
            for (int j = 0; j < 2; j++) { /* max over (prob, state): ties to the larger letter */
                int y0 = prev[y][j];
                double p = v[(t - 1) * JIEBA_STATES + y0] + m->trans[y0][y] + em;
                if (best < 0 || p > best_p || (p == best_p && y0 > best)) best = y0, best_p = p;
            }
            v[t * JIEBA_STATES + y] = best_p;
            back[t * JIEBA_STATES + y] = (signed char)best;
        }
    }
    double pe = v[(n - 1) * JIEBA_STATES + JIEBA_E], ps = v[(n - 1) * JIEBA_STATES + JIEBA_S];
    int state = ps >= pe ? JIEBA_S : JIEBA_E; /* max((V[E], 'E'), (V[S], 'S')) */
    isize *states = w->states;
    for (isize t = n - 1; t >= 0; t--) {
        states[t] = state;
        if (t) state = back[t * JIEBA_STATES + state];
    }
    isize count = 0, nexti = 0;
    for (isize i = 0; i < n; i++) {
        if (states[i] == JIEBA_E || states[i] == JIEBA_S) {
            ends[count++] = base + i + 1;
            nexti = i + 1;
        }
    }
    if (nexti < n) ends[count++] = base + n;
    return count;
}

/* finalseg.cut of s[0:n] (characters of a block): Han runs through the HMM, the rest as
 * [a-zA-Z0-9]+(?:\.\d+)?%? words and what lies between them. */
static isize finalseg_cut(const JiebaModel *m, const uint32_t *s, isize n, isize base, isize *ends, Work *w) {
    isize count = 0, i = 0;
    while (i < n) {
        if (is_han(s[i])) {
            isize j = i;
            while (j < n && is_han(s[j])) j++;
            count += hmm_cut(m, s + i, j - i, base + i, ends + count, w);
            i = j;
            continue;
        }
        isize j = i; /* a stretch without Han: matches of re_skip and the gaps between them */
        while (j < n && !is_han(s[j])) j++;
        isize gap = i;
        while (i < j) {
            if (!is_alnum(s[i])) {
                i++;
                continue;
            }
            if (gap < i) ends[count++] = base + i;
            isize e = i;
            while (e < j && is_alnum(s[e])) e++;
            if (e + 1 < j && s[e] == '.' && s[e + 1] >= '0' && s[e + 1] <= '9') {
                e += 2;
                while (e < j && s[e] >= '0' && s[e] <= '9') e++;
            }
            if (e < j && s[e] == '%') e++;
            ends[count++] = base + e;
            i = gap = e;
        }
        if (gap < j) ends[count++] = base + j;
        i = j;
    }
    return count;
}

/* The buffer of single characters s[0:n] (n >= 1), flushed as __cut_DAG does. */
static isize flush(const JiebaModel *m, const uint32_t *s, isize n, isize base, isize *ends, Work *w) {
    if (n == 1) {
        ends[0] = base + 1;
        return 1;
    }
    const Edge *e = lookup(m, s, n);
    if (!e || !e->freq) return finalseg_cut(m, s, n, base, ends, w);
    for (isize k = 0; k < n; k++) ends[k] = base + k + 1;
    return n;
}

/* __cut_DAG on a block s[0:n]. */
static isize dag_cut(const JiebaModel *m, const uint32_t *s, isize n, isize base, isize *ends, Work *w) {
    double *value = w->value;
    isize *route = w->route;
    value[n] = 0.0;
    for (isize k = n - 1; k >= 0; k--) {
        /* the DAG's ends from k, each scored as it is found (ascending, as calc reads them) */
        double best = 0;
        isize best_x = -1;
        uint32_t node = 0;
        for (isize i = k; i < n; i++) {
            const Edge *e = edge(m, node, s[i]);
            if (!e || !e->present) break;
            node = e->child;
            if (!e->freq) continue;
            double v = e->logf - m->logtotal + value[i + 1];
            if (best_x < 0 || v >= best) best = v, best_x = i;
        }
        if (best_x < 0) { /* DAG[k] == [k]: FREQ.get(s[k]) is 0 or absent, log(1) */
            best = 0.0 - m->logtotal + value[k + 1];
            best_x = k;
        }
        value[k] = best;
        route[k] = best_x;
    }
    isize count = 0, x = 0, buf = -1;
    while (x < n) {
        isize y = route[x] + 1;
        if (y - x == 1) {
            if (buf < 0) buf = x;
        } else {
            if (buf >= 0) {
                count += flush(m, s + buf, x - buf, base + buf, ends + count, w);
                buf = -1;
            }
            ends[count++] = base + y;
        }
        x = y;
    }
    if (buf >= 0) count += flush(m, s + buf, n - buf, base + buf, ends + count, w);
    return count;
}

isize jieba_cut(const JiebaModel *m, const uint32_t *text, isize n, isize *ends) {
    isize longest = 0;
    for (isize i = 0; i < n;) {
        isize j = i;
        while (j < n && in_block(text[j])) j++;
        if (j - i > longest) longest = j - i;
        i = j < n ? j + 1 : j;
    }
    Work w;
    size_t k = (size_t)longest + 1;
    w.value = xmalloc(k * sizeof(double));
    w.route = xmalloc(k * sizeof(isize));
    w.states = xmalloc(k * sizeof(isize));
    w.back = xmalloc(k * JIEBA_STATES);
    w.v = xmalloc(k * JIEBA_STATES * sizeof(double));
    if (!w.value || !w.route || !w.states || !w.back || !w.v) {
        FREE_ALL(w.value, w.route, w.states, w.back, w.v);
        return -1;
    }
    isize count = 0, i = 0;
    while (i < n) {
        if (in_block(text[i])) {
            isize j = i;
            while (j < n && in_block(text[j])) j++;
            count += dag_cut(m, text + i, j - i, i, ends + count, &w);
            i = j;
        } else if (text[i] == '\r' && i + 1 < n && text[i + 1] == '\n') {
            ends[count++] = i + 2;
            i += 2;
        } else {
            ends[count++] = ++i;
        }
    }
    FREE_ALL(w.value, w.route, w.states, w.back, w.v);
    return count;
}
