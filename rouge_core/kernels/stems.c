/* The shared table of stems and the threads' own copies (stems.h). */
#include "stems.h"

#include <pthread.h>

/* The words' and stems' bytes, in chunks that never move (a Stem points into them). */
typedef struct StemChunk {
    struct StemChunk *next;
    size_t used, cap;
    unsigned char data[];
} Chunk;

enum { FIRST_SLOTS = 256, CHUNK_BYTES = 1 << 14 };

/* A StemDict is compact, so that a text's look-ups stay in the core's caches: the slots are
 * sized to the words kept (at most half full), not to the table's capacity (a table sized for
 * 2^18 words is 16 MiB of mostly empty slots: a cache and TLB miss per word, issue 34). Both
 * words and stems are hashed once, when kept (the words' hashes are the Toks' own). */

static void dict_clear(StemDict *d) {
    for (Chunk *c = d->bytes; c;) {
        Chunk *next = c->next;
        free(c);
        c = next;
    }
    FREE_ALL(d->slots, d->stems);
    memset(d, 0, sizeof(*d));
}

static size_t dict_bytes(const StemDict *d) {
    size_t n = (d->slots ? d->mask + 1 : 0) * sizeof(u64) + (size_t)d->stems_cap * sizeof(Stem);
    for (const Chunk *c = d->bytes; c; c = c->next) n += sizeof(Chunk) + c->cap;
    return n;
}

/* The word's entry, or NULL with *slot the empty slot where it goes. */
static const Stem *dict_find(const StemDict *d, const Term *q, size_t *slot) {
    if (!d->slots) return NULL;
    u64 high = q->hash & 0xffffffff00000000ULL;
    for (size_t k = q->hash & d->mask;; k = (k + 1) & d->mask) {
        u64 e = d->slots[k];
        if (!e) {
            *slot = k;
            return NULL;
        }
        if ((e & 0xffffffff00000000ULL) == high) {
            const Stem *x = &d->stems[(uint32_t)e - 1];
            if (term_equal(&x->word, q)) return x;
        }
    }
}

/* Room for n bytes that never move; NULL on no memory. */
static unsigned char *dict_room(StemDict *d, size_t n) {
    Chunk *c = d->bytes;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > CHUNK_BYTES ? n : CHUNK_BYTES;
        c = malloc(sizeof(Chunk) + cap);
        if (!c) return NULL;
        c->next = d->bytes;
        c->used = 0;
        c->cap = cap;
        d->bytes = c;
    }
    unsigned char *p = c->data + c->used;
    c->used += n;
    return p;
}

/* The slots doubled (or made). -1 on no memory (the dict stays as it was). */
static int dict_grow(StemDict *d) {
    size_t size = d->slots ? (d->mask + 1) * 2 : FIRST_SLOTS, mask = size - 1;
    u64 *slots = xcalloc(size, sizeof(u64));
    if (!slots) return -1;
    for (isize i = 0; i < d->size; i++) {
        size_t k = d->stems[i].word.hash & mask;
        while (slots[k]) k = (k + 1) & mask;
        slots[k] = (d->stems[i].word.hash & 0xffffffff00000000ULL) | (u64)(uint32_t)(i + 1);
    }
    free(d->slots);
    d->slots = slots;
    d->mask = mask;
    return 0;
}

/* Keep word q's stem (stem NULL: dropped) unless kept already; no memory: not kept (it is
 * asked for again later). */
static void dict_add(StemDict *d, const Term *q, const unsigned char *stem, isize stem_len) {
    size_t slot;
    if (dict_find(d, q, &slot)) return; /* another thread kept it meanwhile (the same stem) */
    if (!d->slots || (size_t)(d->size + 1) * 2 > d->mask + 1) {
        if (dict_grow(d) < 0) return;
        dict_find(d, q, &slot);
    }
    if (grow_kept((void **)&d->stems, &d->stems_cap, d->size + 1, sizeof(Stem)) < 0) return;
    unsigned char *bytes = dict_room(d, (size_t)q->len + (size_t)(stem ? stem_len : 0));
    if (!bytes) return;
    memcpy(bytes, q->data, (size_t)q->len);
    Stem *x = &d->stems[d->size];
    x->word = *q;
    x->word.data = bytes;
    memset(&x->stem, 0, sizeof(Term));
    if (stem) {
        if (stem_len) memcpy(bytes + q->len, stem, (size_t)stem_len);
        x->stem = term_make(bytes + q->len, stem_len);
    }
    d->slots[slot] = (q->hash & 0xffffffff00000000ULL) | (u64)(uint32_t)(d->size + 1);
    d->size++;
}

/* ------------------------------------------------------------------------------------------
 * the shared table
 * ---------------------------------------------------------------------------------------- */

static u64 LAST_TABLE; /* the serial of the last table made (atomic) */

struct StemTable {
    pthread_rwlock_t lock; /* look-ups share it; an insertion or emptying holds it alone */
    StemDict d;
    u64 locked_reads; /* texts looked up here, the lock taken (atomic) */
    /* Read once per text by every thread, written seldom: on a cache line of their own, away
     * from the lock word, which the threads write. epoch: bumped by every emptying (atomic),
     * so that a thread's copy of an older state starts afresh. */
    _Alignas(64) u64 epoch;
    u64 serial;
    isize capacity;
    char after[64 - 2 * sizeof(u64) - sizeof(isize)];
};

StemTable *stems_new(isize capacity) {
    void *room = NULL;
    if (posix_memalign(&room, 64, sizeof(StemTable)) != 0) return NULL;
    StemTable *s = room;
    memset(s, 0, sizeof(*s));
    if (pthread_rwlock_init(&s->lock, NULL) != 0) {
        free(s);
        return NULL;
    }
    s->capacity = capacity > 0 ? capacity : 1;
    s->serial = __atomic_add_fetch(&LAST_TABLE, 1, __ATOMIC_RELAXED);
    return s;
}

/* The lock held alone (or no other user). */
static void clear_locked(StemTable *s) {
    dict_clear(&s->d);
    __atomic_add_fetch(&s->epoch, 1, __ATOMIC_RELEASE);
}

void stems_free(StemTable *s) {
    if (!s) return;
    dict_clear(&s->d);
    pthread_rwlock_destroy(&s->lock);
    free(s);
}

void stems_clear(StemTable *s) {
    pthread_rwlock_wrlock(&s->lock);
    clear_locked(s);
    pthread_rwlock_unlock(&s->lock);
}

u64 stems_locked_reads(StemTable *s) { return __atomic_load_n(&s->locked_reads, __ATOMIC_RELAXED); }

isize stems_size(StemTable *s) {
    pthread_rwlock_rdlock(&s->lock);
    isize n = s->d.size;
    pthread_rwlock_unlock(&s->lock);
    return n;
}

/* ------------------------------------------------------------------------------------------
 * a thread's copy
 * ---------------------------------------------------------------------------------------- */

void stem_cache_free(StemCache *c) {
    dict_clear(&c->d);
    FREE_ALL(c->to, c->at, c->origin, c->kept);
    memset(c, 0, sizeof(*c));
}

size_t stem_cache_bytes(const StemCache *c) {
    return dict_bytes(&c->d) + (size_t)c->cap * (sizeof(Term) + sizeof(isize) + sizeof(i32)) +
           (size_t)c->kept_cap * sizeof(isize);
}

/* c made a copy of s as it is now: emptied when it copies another table, an older state of
 * this one, or holds as many words as the table may. */
static void cache_follow(StemCache *c, StemTable *s) {
    u64 epoch = __atomic_load_n(&s->epoch, __ATOMIC_ACQUIRE);
    if (c->serial == s->serial && c->epoch == epoch && c->d.size < s->capacity) return;
    dict_clear(&c->d);
    c->serial = s->serial;
    c->epoch = epoch;
}

/* ------------------------------------------------------------------------------------------
 * stemming a Tok
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    unsigned char *data;
    isize len, cap;
} Bytes;

static int bytes_add(Bytes *b, const unsigned char *p, isize n) {
    if (grow_kept((void **)&b->data, &b->cap, b->len + n + 1, 1) < 0) return -1;
    if (n) memcpy(b->data + b->len, p, (size_t)n);
    b->len += n;
    return 0;
}

enum { DROPPED = -1, UNKNOWN = -2 };

/* Term v's stem found (x): appended to buf (-1 on no memory). */
static int take(const Stem *x, isize v, Term *to, isize *at, Bytes *buf) {
    if (!x->stem.data) {
        at[v] = DROPPED;
        return 0;
    }
    at[v] = buf->len;
    to[v] = x->stem;
    return bytes_add(buf, x->stem.data, x->stem.len);
}

Tok *tok_stemmed_into(Tok *spare, const Tok *t, StemTable *s, StemCache *cache, StemMiss miss, void *ctx, int *rc) {
    isize nv = t->nv, word_bytes = 0;
    StemCache own = {0};
    StemCache *c = cache ? cache : &own; /* without a thread's copy: its buffers only */
    Bytes buf = {NULL, 0, 0};
    Tok *out = NULL;
    *rc = -1;
    if (spare) { /* the spare's stem bytes are this text's buffer */
        buf.data = spare->buf;
        buf.cap = spare->cap_buf;
        spare->buf = NULL;
        spare->cap_buf = 0;
    }
    /* per term: its stem (the data set at the end; hash and head from the table); at: the
     * stem's offset in buf, DROPPED or UNKNOWN */
    if (nv + 1 > c->cap) {
        isize cap = nv + 1 > 2 * c->cap ? nv + 1 : 2 * c->cap;
        FREE_ALL(c->to, c->at, c->origin);
        c->to = xmalloc((size_t)cap * sizeof(Term));
        c->at = xmalloc((size_t)cap * sizeof(isize));
        c->origin = xmalloc((size_t)cap * sizeof(i32));
        c->cap = c->to && c->at && c->origin ? cap : 0;
        if (!c->cap) goto done;
    }
    if (cache && grow_kept((void **)&c->kept, &c->kept_cap, t->n + 1, sizeof(isize)) < 0) goto done;
    Term *to = c->to;
    isize *at = c->at;
    for (isize v = 0; v < nv; v++) word_bytes += t->terms[v].len;
    /* a stem is seldom longer than its word: buf is allocated once */
    if (grow_kept((void **)&buf.data, &buf.cap, word_bytes + 1, 1) < 0) goto done;
    isize unknown = 0;
    int failed = 0;
    if (cache) cache_follow(cache, s);
    for (isize v = 0; v < nv && !failed; v++) {
        size_t slot;
        const Stem *x = cache ? dict_find(&cache->d, &t->terms[v], &slot) : NULL;
        to[v].data = NULL;
        if (x) {
            failed = take(x, v, to, at, &buf) < 0;
        } else {
            at[v] = UNKNOWN;
            unknown++;
        }
    }
    if (failed) goto done;
    if (unknown) { /* words this thread has not seen: the shared table's */
        pthread_rwlock_rdlock(&s->lock);
        __atomic_add_fetch(&s->locked_reads, 1, __ATOMIC_RELAXED);
        for (isize v = 0; v < nv && !failed; v++) {
            if (at[v] != UNKNOWN) continue;
            size_t slot;
            const Stem *x = dict_find(&s->d, &t->terms[v], &slot);
            if (!x) continue;
            unknown--;
            failed = take(x, v, to, at, &buf) < 0;
            if (cache) dict_add(&cache->d, &x->word, x->stem.data, x->stem.len);
        }
        pthread_rwlock_unlock(&s->lock);
    }
    if (failed) goto done;
    for (isize v = 0; v < nv && unknown; v++) { /* words new to the table: the caller's function */
        if (at[v] != UNKNOWN) continue;
        const Term *q = &t->terms[v];
        unsigned char *stem = NULL;
        isize stem_len = 0;
        int dropped = 0;
        int code = miss(ctx, q->data, q->len, &stem, &stem_len, &dropped);
        if (code < 0) {
            free(stem);
            *rc = code;
            goto done;
        }
        if (dropped) {
            at[v] = DROPPED;
        } else {
            at[v] = buf.len;
            to[v] = term_make(stem, stem_len);
            if (bytes_add(&buf, stem, stem_len) < 0) {
                free(stem);
                goto done;
            }
        }
        const unsigned char *kept = dropped ? NULL : stem ? stem : (const unsigned char *)"";
        pthread_rwlock_wrlock(&s->lock);
        if (s->d.size >= s->capacity) clear_locked(s); /* full: it starts afresh */
        dict_add(&s->d, q, kept, stem_len);
        pthread_rwlock_unlock(&s->lock);
        if (cache) dict_add(&cache->d, q, kept, stem_len);
        free(stem);
    }
    for (isize v = 0; v < nv; v++) to[v].data = at[v] >= 0 ? buf.data + at[v] : NULL;
    out = tok_mapped_terms_into(spare, t, to, c->origin, cache ? c->kept : NULL);
    spare = NULL; /* reused, or freed */
    if (out) {
        out->buf = buf.data; /* the stems' bytes, owned by the new Tok */
        out->cap_buf = buf.cap;
        buf.data = NULL;
        *rc = 0;
    }
done:
    tok_free(spare);
    free(buf.data);
    if (!cache) stem_cache_free(&own);
    return out;
}

Tok *tok_stemmed(const Tok *t, StemTable *s, StemCache *cache, StemMiss miss, void *ctx, int *rc) {
    return tok_stemmed_into(NULL, t, s, cache, miss, ctx, rc);
}
