//! The arithmetic of reordering a keyed list in place, apart from the DOM:
//! which items can stay where they are, so that only the others move.
//!
//! Moving an element costs the browser its style and layout again, so a
//! list whose ranking changed moves as few items as it can: those outside
//! a longest run of items whose old order is the new one (the method of
//! Inferno and ivi's keyed diffs).

/// For each item of the new order, whether it stays where it is.
/// `previous[i]` is where the `i`-th item of the new order was in the old
/// one (`None`: it was not in the list). The items that stay are a longest
/// subsequence whose old positions increase; everything else (new items
/// included) is moved before the item that follows it in the new order,
/// from the last to the first.
///
/// ```
/// use explorer_core::view::unmoved;
/// // A B C D became D A B C: only D moves.
/// assert_eq!(
///     unmoved(&[Some(3), Some(0), Some(1), Some(2)]),
///     [false, true, true, true]
/// );
/// ```
pub fn unmoved(previous: &[Option<usize>]) -> Vec<bool> {
    // Patience sorting: `tails[k]` is the index (in `previous`) of the
    // smallest old position that ends an increasing run of length k + 1;
    // `back[i]` the item before `i` in the run that `i` ends.
    let mut tails: Vec<usize> = Vec::new();
    let mut back: Vec<Option<usize>> = vec![None; previous.len()];
    for (i, p) in previous.iter().enumerate() {
        let Some(p) = *p else { continue };
        let k = tails.partition_point(|&t| previous[t].is_some_and(|q| q < p));
        back[i] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(i);
        } else {
            tails[k] = i;
        }
    }
    let mut stays = vec![false; previous.len()];
    let mut at = tails.last().copied();
    while let Some(i) = at {
        stays[i] = true;
        at = back[i];
    }
    stays
}

#[cfg(test)]
mod tests {
    use super::unmoved;

    /// Applies the moves `unmoved` leaves to do to `old` (what the list
    /// shows), as the app does: from the last item to the first, each
    /// item not staying is put before the one after it. Returns the list
    /// and how many items moved.
    fn reorder(old: &[char], new: &[char]) -> (Vec<char>, usize) {
        let previous: Vec<Option<usize>> = new
            .iter()
            .map(|c| old.iter().position(|o| o == c))
            .collect();
        let stays = unmoved(&previous);
        let mut list: Vec<char> = old.iter().copied().filter(|c| new.contains(c)).collect();
        let mut moved = 0;
        for i in (0..new.len()).rev() {
            if stays[i] {
                continue;
            }
            moved += 1;
            list.retain(|&c| c != new[i]);
            let at = new
                .get(i + 1)
                .and_then(|next| list.iter().position(|c| c == next))
                .unwrap_or(list.len());
            list.insert(at, new[i]);
        }
        (list, moved)
    }

    #[test]
    fn the_same_order_moves_nothing() {
        let abc: Vec<char> = "abcdef".chars().collect();
        assert_eq!(reorder(&abc, &abc), (abc.clone(), 0));
    }

    #[test]
    fn one_item_that_jumps_is_the_only_one_moved() {
        let old: Vec<char> = "abcdefgh".chars().collect();
        let new: Vec<char> = "habcdefg".chars().collect();
        assert_eq!(reorder(&old, &new), (new.clone(), 1));
        let new: Vec<char> = "bcdefgha".chars().collect();
        assert_eq!(reorder(&old, &new), (new.clone(), 1));
    }

    #[test]
    fn new_and_leaving_items_are_placed_and_the_rest_kept() {
        let old: Vec<char> = "abcdef".chars().collect();
        let new: Vec<char> = "xbdyfz".chars().collect();
        let (list, moved) = reorder(&old, &new);
        assert_eq!(list, new);
        // Only the three new items are inserted.
        assert_eq!(moved, 3);
    }

    #[test]
    fn a_reversal_keeps_one() {
        let old: Vec<char> = "abcde".chars().collect();
        let new: Vec<char> = "edcba".chars().collect();
        assert_eq!(reorder(&old, &new), (new.clone(), 4));
    }

    #[test]
    fn every_shuffle_ends_in_the_new_order_with_the_fewest_moves() {
        // Every order of six items, from one old order: the result is the
        // new order, and the moves are n minus the longest increasing
        // run (brute force over every subset).
        let old: Vec<char> = "abcdef".chars().collect();
        let mut perm = old.clone();
        let mut count = 0;
        loop {
            let (list, moved) = reorder(&old, &perm);
            assert_eq!(list, perm);
            let positions: Vec<usize> = perm
                .iter()
                .map(|c| old.iter().position(|o| o == c).unwrap())
                .collect();
            let longest = (0u32..1 << positions.len())
                .filter(|mask| {
                    let run: Vec<usize> = (0..positions.len())
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| positions[i])
                        .collect();
                    run.windows(2).all(|w| w[0] < w[1])
                })
                .map(u32::count_ones)
                .max()
                .unwrap() as usize;
            assert_eq!(moved, perm.len() - longest, "{perm:?}");
            count += 1;
            // Next permutation in lexicographic order.
            let Some(i) = (0..perm.len() - 1).rev().find(|&i| perm[i] < perm[i + 1]) else {
                break;
            };
            let j = (i + 1..perm.len())
                .rev()
                .find(|&j| perm[j] > perm[i])
                .unwrap();
            perm.swap(i, j);
            perm[i + 1..].reverse();
        }
        assert_eq!(count, 720);
    }
}
