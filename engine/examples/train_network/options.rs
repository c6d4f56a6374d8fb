//! The trainer's command line.

use std::path::PathBuf;

use kibitz_engine::{KING_BUCKETS, Network};

/// The command line.
pub struct Options {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub lr_drop_every: usize,
    pub lr_gamma: f32,
    pub wdl: f32,
    pub weight_decay: f32,
    pub threads: usize,
    pub seed: u64,
    pub validation: f64,
    pub max_positions: usize,
    pub mirror: bool,
    /// The network of `--init`, read while the options are checked.
    pub init: Option<Network>,
    /// The factor of the written network's output layer.
    pub scale: f32,
    /// The output layer's buckets.
    pub buckets: usize,
    /// The first layer's king buckets.
    pub king_buckets: usize,
    /// Whether only the output layer learns.
    pub output_only: bool,
}

pub fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        data: Vec::new(),
        out: PathBuf::new(),
        hidden: 128,
        epochs: 20,
        batch: 16384,
        lr: 0.001,
        lr_drop_every: 8,
        lr_gamma: 0.3,
        wdl: 0.3,
        weight_decay: 0.01,
        threads: std::thread::available_parallelism().map_or(1, usize::from),
        seed: 1,
        validation: 0.02,
        max_positions: usize::MAX,
        mirror: false,
        init: None,
        scale: 1.0,
        buckets: 1,
        king_buckets: 1,
        output_only: false,
    };
    let mut hidden_given = false;
    let mut buckets_given = false;
    let mut kings_given = false;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String>
        where
            T::Err: std::fmt::Display,
        {
            v.parse::<T>().map_err(|e| format!("{flag} {v}: {e}"))
        }
        match flag.as_str() {
            "--data" => o.data.push(PathBuf::from(value()?)),
            "--out" => o.out = PathBuf::from(value()?),
            "--hidden" => {
                o.hidden = number(&flag, &value()?)?;
                hidden_given = true;
            }
            "--epochs" => o.epochs = number(&flag, &value()?)?,
            "--batch" => o.batch = number(&flag, &value()?)?,
            "--lr" => o.lr = number(&flag, &value()?)?,
            "--lr-drop-every" => o.lr_drop_every = number(&flag, &value()?)?,
            "--lr-gamma" => o.lr_gamma = number(&flag, &value()?)?,
            "--wdl" => o.wdl = number(&flag, &value()?)?,
            "--weight-decay" => o.weight_decay = number(&flag, &value()?)?,
            "--threads" => o.threads = number(&flag, &value()?)?,
            "--seed" => o.seed = number(&flag, &value()?)?,
            "--validation" => o.validation = number(&flag, &value()?)?,
            "--max-positions" => o.max_positions = number(&flag, &value()?)?,
            "--mirror" => o.mirror = true,
            "--scale" => o.scale = number(&flag, &value()?)?,
            "--buckets" => {
                o.buckets = number(&flag, &value()?)?;
                buckets_given = true;
            }
            "--king-buckets" => {
                o.king_buckets = number(&flag, &value()?)?;
                kings_given = true;
            }
            "--output-only" => o.output_only = true,
            "--init" => {
                let path = PathBuf::from(value()?);
                let read = std::fs::read(&path).map_err(|e| e.to_string());
                let network = read.and_then(|b| Network::from_bytes(&b).map_err(|e| e.to_string()));
                o.init = Some(network.map_err(|e| format!("--init {}: {e}", path.display()))?);
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if o.data.is_empty() && !(o.epochs == 0 && o.init.is_some()) {
        return Err("--data FILE is required (unless --epochs 0 rescales an --init network)".into());
    }
    if o.out.as_os_str().is_empty() {
        return Err("--out NET is required".into());
    }
    if let Some(init) = &o.init {
        let h = init.hidden();
        if !hidden_given {
            o.hidden = h;
        } else if o.hidden < h {
            return Err(format!("--hidden {} is narrower than the --init network's {h} neurons", o.hidden));
        }
        let b = init.buckets();
        if !buckets_given {
            o.buckets = b;
        } else if b != 1 && o.buckets != b {
            return Err(format!("--buckets {} differs from the --init network's {b} buckets", o.buckets));
        }
        let k = init.king_buckets();
        if !kings_given {
            o.king_buckets = k;
        } else if k != 1 && o.king_buckets != k {
            return Err(format!("--king-buckets {} differs from the --init network's {k}", o.king_buckets));
        }
    } else if o.output_only {
        return Err("--output-only needs an --init network to keep the hidden layer of".into());
    }
    if o.buckets == 0 || o.buckets > kibitz_engine::MAX_BUCKETS {
        return Err(format!("--buckets {} must be within 1 and {}", o.buckets, kibitz_engine::MAX_BUCKETS));
    }
    if o.king_buckets != 1 && o.king_buckets != KING_BUCKETS {
        return Err(format!("--king-buckets {} must be 1 or {KING_BUCKETS}", o.king_buckets));
    }
    if o.hidden == 0 || !o.hidden.is_multiple_of(16) {
        return Err(format!("--hidden {} must be a positive multiple of 16", o.hidden));
    }
    if o.batch == 0 || o.threads == 0 || o.lr_drop_every == 0 {
        return Err("--batch, --threads and --lr-drop-every must be positive".into());
    }
    if !(0.0..=1.0).contains(&o.wdl) {
        return Err(format!("--wdl {} must be within 0 and 1", o.wdl));
    }
    if !(0.0..1.0).contains(&o.validation) {
        return Err(format!("--validation {} must be at least 0 and below 1", o.validation));
    }
    if !(o.lr.is_finite() && o.lr > 0.0 && o.lr_gamma.is_finite() && o.weight_decay.is_finite()) {
        return Err("--lr must be positive, --lr-gamma and --weight-decay finite".into());
    }
    if !(o.scale.is_finite() && o.scale > 0.0) {
        return Err(format!("--scale {} must be a positive number", o.scale));
    }
    Ok(o)
}
