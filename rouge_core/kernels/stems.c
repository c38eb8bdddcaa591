/* The shared table of stems (stems.h). */
#include "stems.h"

#include <pthread.h>

typedef struct {
    u64 hash;
    unsigned char *word; /* word bytes, then the stem's */
    isize len, stem_len; /* stem_len -1: dropped */
} Entry;

struct StemTable {
    pthread_rwlock_t lock; /* look-ups share it; an insertion or emptying holds it alone */
    Entry *slots;
    size_t mask;
    isize size, capacity;
};

static u64 word_hash(const unsigned char *p, isize n) { /* FNV-1a, then mixed */
    u64 h = 0xcbf29ce484222325ULL ^ (u64)n;
    for (isize i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return mix64(h) | 1; /* 0 marks an empty slot */
}

StemTable *stems_new(isize capacity) {
    StemTable *s = xcalloc(1, sizeof(StemTable));
    if (!s) return NULL;
    size_t slots = 64;
    while (slots < 2 * (size_t)(capacity > 0 ? capacity : 1)) slots *= 2;
    s->slots = xcalloc(slots, sizeof(Entry));
    if (!s->slots || pthread_rwlock_init(&s->lock, NULL) != 0) {
        free(s->slots);
        free(s);
        return NULL;
    }
    s->mask = slots - 1;
    s->capacity = capacity > 0 ? capacity : 1;
    return s;
}

static void clear_locked(StemTable *s) {
    for (size_t k = 0; k <= s->mask; k++) free(s->slots[k].word);
    memset(s->slots, 0, (s->mask + 1) * sizeof(Entry));
    s->size = 0;
}

void stems_free(StemTable *s) {
    if (!s) return;
    clear_locked(s);
    pthread_rwlock_destroy(&s->lock);
    free(s->slots);
    free(s);
}

void stems_clear(StemTable *s) {
    pthread_rwlock_wrlock(&s->lock);
    clear_locked(s);
    pthread_rwlock_unlock(&s->lock);
}

isize stems_size(StemTable *s) {
    pthread_rwlock_rdlock(&s->lock);
    isize n = s->size;
    pthread_rwlock_unlock(&s->lock);
    return n;
}

/* The slot of the word, or the empty slot where it goes (the lock held). */
static Entry *find_locked(StemTable *s, const unsigned char *word, isize len, u64 h) {
    for (size_t k = h & s->mask;; k = (k + 1) & s->mask) {
        Entry *e = &s->slots[k];
        if (!e->hash || (e->hash == h && e->len == len && memcmp(e->word, word, (size_t)len) == 0)) return e;
    }
}

/* Keep a word's stem (the lock held); no memory: not kept (the next text asks again). */
static void insert_locked(StemTable *s, const unsigned char *word, isize len, u64 h, const unsigned char *stem,
                          isize stem_len) {
    if (s->size >= s->capacity) clear_locked(s);
    Entry *e = find_locked(s, word, len, h);
    if (e->hash) return; /* another thread kept it meanwhile (the same stem) */
    unsigned char *copy = xmalloc((size_t)len + (size_t)(stem_len > 0 ? stem_len : 0));
    if (!copy) return;
    memcpy(copy, word, (size_t)len);
    if (stem_len > 0) memcpy(copy + len, stem, (size_t)stem_len);
    e->hash = h;
    e->word = copy;
    e->len = len;
    e->stem_len = stem_len;
    s->size++;
}

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

Tok *tok_stemmed(const Tok *t, StemTable *s, StemMiss miss, void *ctx, int *rc) {
    isize nv = t->nv;
    isize *at = xmalloc(((size_t)nv + 1) * sizeof(isize)); /* per term: its stem's offset in buf, -1 dropped, -2 unknown */
    isize *len = xmalloc(((size_t)nv + 1) * sizeof(isize));
    u64 *hash = xmalloc(((size_t)nv + 1) * sizeof(u64));
    TermRef *to = xcalloc((size_t)nv + 1, sizeof(TermRef));
    i32 *origin = xmalloc(((size_t)nv + 1) * sizeof(i32));
    Bytes buf = {NULL, 0, 0};
    Tok *out = NULL;
    *rc = -1;
    if (!at || !len || !hash || !to || !origin || grow_kept((void **)&buf.data, &buf.cap, 64, 1) < 0) goto done;
    isize unknown = 0;
    int failed = 0;
    pthread_rwlock_rdlock(&s->lock);
    for (isize v = 0; v < nv && !failed; v++) {
        const Term *q = &t->terms[v];
        hash[v] = word_hash(q->data, q->len);
        Entry *e = find_locked(s, q->data, q->len, hash[v]);
        if (!e->hash) {
            at[v] = -2;
            unknown++;
        } else if (e->stem_len < 0) {
            at[v] = -1;
        } else {
            at[v] = buf.len;
            len[v] = e->stem_len;
            failed = bytes_add(&buf, e->word + e->len, e->stem_len) < 0;
        }
    }
    pthread_rwlock_unlock(&s->lock);
    if (failed) goto done;
    for (isize v = 0; v < nv && unknown; v++) {
        if (at[v] != -2) continue;
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
            at[v] = -1;
        } else {
            at[v] = buf.len;
            len[v] = stem_len;
            if (bytes_add(&buf, stem, stem_len) < 0) {
                free(stem);
                goto done;
            }
        }
        pthread_rwlock_wrlock(&s->lock);
        insert_locked(s, q->data, q->len, hash[v], stem, dropped ? -1 : stem_len);
        pthread_rwlock_unlock(&s->lock);
        free(stem);
    }
    for (isize v = 0; v < nv; v++)
        if (at[v] >= 0) {
            to[v].data = buf.data + at[v];
            to[v].len = len[v];
        }
    out = tok_mapped(t, to, origin);
    if (out) {
        out->buf = buf.data; /* the stems' bytes, owned by the new Tok */
        buf.data = NULL;
        *rc = 0;
    }
done:
    FREE_ALL(at, len, hash, to, origin, buf.data);
    return out;
}
